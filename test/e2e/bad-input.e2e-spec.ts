import { connect as connectTcp } from 'node:net';
import request from 'supertest';
import { ABILITIES } from '../../src/common/auth/auth.types';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect } from '../utils/sockets';

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

interface Answer {
  status: number;
  body: { status?: boolean; error_code?: string; errors?: Record<string, string[]> };
}

/** A 422 in the envelope naming exactly the given field. */
function expectRefused(res: Answer, field: string) {
  expect({ status: res.status, error_code: res.body.error_code }).toEqual({
    status: 422,
    error_code: 'validation_failed',
  });
  expect(res.body.errors?.[field]?.[0]).toMatch(/^[A-Z].*\.$/);
}

/**
 * Issue 16: the inputs a careless or hostile client sent that answered 500. Each is now a 422
 * naming the field: NUL characters and lone surrogates in any text (body, query), `null` where
 * the field is not documented nullable, and an array or a string where an object belongs.
 */
describe('bad input is a 4xx', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let apiKey: string;
  let session: { session_token: string; conversation_id: number; visitor_uid: string };

  const agent = () => ({ Authorization: `Bearer ${org.token}` });
  const api = () => ({ Authorization: `Bearer ${apiKey}` });
  const widget = () => ({ Authorization: `Bearer ${session.session_token}` });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url);
    ({ key: apiKey } = await createApiKey(app.url, org.token, [...ABILITIES]));
    session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, visitor_name: 'Nora' })
        .expect(200)
    ).body as typeof session;
    await request(app.url)
      .post('/api/widget/messages')
      .set(widget())
      .send({ body: 'Hello' })
      .expect(201);
  });

  afterAll(() => suite?.stop());

  it('refuses integers past PostgreSQL bigint in query and path with a 422 or 404, never a 500 (issue 25)', async () => {
    const past = '9223372036854775808';
    const inbox = await request(app.url)
      .get('/api/agent/conversations')
      .query({ assigned_agent_id: past })
      .set(agent());
    expectRefused(inbox, 'assigned_agent_id');
    const largest = await request(app.url)
      .get('/api/agent/conversations')
      .query({ assigned_agent_id: '9223372036854775807' })
      .set(agent())
      .expect(200);
    expect(largest.body.data).toEqual([]);
    await request(app.url).get(`/api/agent/conversations/${past}`).set(agent()).expect(404);
    const site = await request(app.url)
      .get('/api/agent/conversations')
      .query({ site_id: past })
      .set(agent());
    expectRefused(site, 'site_id');
  });

  describe('a NUL character in any text', () => {
    it('is refused in a ticket subject and description', async () => {
      const res = await request(app.url)
        .post('/api/v1/tickets')
        .set(api())
        .send({ subject: NUL, description: 'fine' });
      expectRefused(res, 'subject');
      const desc = await request(app.url)
        .post('/api/agent/tickets')
        .set(agent())
        .send({ subject: 'fine', description: NUL });
      expectRefused(desc, 'description');
    });

    it('is refused in message bodies (widget, agent, public API)', async () => {
      expectRefused(
        await request(app.url).post('/api/widget/messages').set(widget()).send({ body: NUL }),
        'body',
      );
      expectRefused(
        await request(app.url)
          .post(`/api/agent/conversations/${session.conversation_id}/messages`)
          .set(agent())
          .send({ body: NUL }),
        'body',
      );
      expectRefused(
        await request(app.url)
          .post(`/api/v1/conversations/${session.conversation_id}/messages`)
          .set(api())
          .send({ body: NUL }),
        'body',
      );
    });

    it('is refused in every field of widget init and in widget_key, before the key is looked up', async () => {
      expectRefused(
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key, visitor_name: NUL }),
        'visitor_name',
      );
      expectRefused(
        await request(app.url).post('/api/widget/init').send({ widget_key: NUL }),
        'widget_key',
      );
      expectRefused(
        await request(app.url)
          .post('/api/widget/messages')
          .send({ widget_key: NUL, visitor_uid: session.visitor_uid, body: 'hi' }),
        'widget_key',
      );
      expectRefused(
        await request(app.url)
          .post('/api/visitor-account-login/trusted')
          .set('X-Service-Visitor-Login-Secret', 'vls_x')
          .send({ widget_key: NUL, email: 'a@example.com' }),
        'widget_key',
      );
    });

    it('is refused in a query string, naming the parameter', async () => {
      expectRefused(
        await request(app.url).get('/api/v1/visitors').query({ search: NUL }).set(api()),
        'search',
      );
      expectRefused(
        await request(app.url).get('/api/widget/config').query({ widget_key: NUL }),
        'widget_key',
      );
    });

    it('is refused in nested text, naming the path', async () => {
      const res = await request(app.url)
        .post('/api/widget/profile')
        .set(widget())
        .send({ custom_fields: { favourite: NUL } });
      expectRefused(res, 'custom_fields.favourite');
    });
  });

  describe('a NUL character in a header', () => {
    /** Sends raw bytes to the app itself (no client would send them) and reads the answer. */
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connectTcp(app.port, '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });

    it('is refused by the HTTP parser before any route, with a 400 in the envelope', async () => {
      const answer = await raw(
        'GET /api/agent/me HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n',
      );
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toContain('Content-Type: application/json');
      expect(JSON.parse(body)).toMatchObject({
        status: false,
        code: '400',
        error_code: 'malformed_request',
        message: 'The request is not valid HTTP.',
      });
    });
  });

  describe('a lone surrogate in any text', () => {
    it('is refused in email-shaped fields', async () => {
      expectRefused(
        await request(app.url).post('/api/agent/auth/login').send({ email: LONE, password: 'x' }),
        'email',
      );
      expectRefused(
        await request(app.url)
          .post('/api/agent/auth/register')
          .send({
            organization_name: 'X',
            name: 'X',
            email: `x${LONE}@example.com`,
            password: 'x',
          }),
        'email',
      );
      expectRefused(
        await request(app.url)
          .post('/api/agent/team')
          .set(agent())
          .send({ name: 'X', email: LONE, role: 'agent', password: 'long-enough-1' }),
        'email',
      );
      expectRefused(
        await request(app.url)
          .post('/api/v1/tickets')
          .set(api())
          .send({ subject: 'S', description: 'D', customer_email: LONE }),
        'customer_email',
      );
      expectRefused(
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key, visitor_email: LONE }),
        'visitor_email',
      );
    });

    it('is refused in a review comment and in any other text, instead of being stored as U+FFFD', async () => {
      expectRefused(
        await request(app.url)
          .post('/api/widget/reviews')
          .set(widget())
          .send({ rating: 5, comment: LONE }),
        'comment',
      );
      expectRefused(
        await request(app.url).post('/api/widget/messages').set(widget()).send({ body: LONE }),
        'body',
      );
    });

    it('is refused in a message sent over the widget socket too', async () => {
      const socket = await connect(
        `http://127.0.0.1:${app.port}`,
        '/widget',
        session.session_token,
      );
      try {
        for (const body of [NUL, LONE]) {
          await expect(socket.ask('message', { body })).resolves.toMatchObject({
            status: false,
            error_code: 'validation_failed',
            errors: { body: [expect.stringMatching(/^The body field /)] },
          });
        }
      } finally {
        socket.close();
      }
    });

    it('is accepted when paired: emoji are text', async () => {
      await request(app.url)
        .post('/api/widget/messages')
        .set(widget())
        .send({ body: 'Thanks \ud83d\ude00' })
        .expect(201);
    });
  });

  describe('null where a field is not documented nullable', () => {
    it('is a 422 for agent_user_id on conversation close and message create', async () => {
      expectRefused(
        await request(app.url)
          .post(`/api/v1/conversations/${session.conversation_id}/close`)
          .set(api())
          .send({ agent_user_id: null }),
        'agent_user_id',
      );
      expectRefused(
        await request(app.url)
          .post(`/api/v1/conversations/${session.conversation_id}/messages`)
          .set(api())
          .send({ body: 'Hi', agent_user_id: null }),
        'agent_user_id',
      );
    });

    it('is a 422 for agent_id on assign', async () => {
      expectRefused(
        await request(app.url)
          .post(`/api/agent/conversations/${session.conversation_id}/assign`)
          .set(agent())
          .send({ agent_id: null }),
        'agent_id',
      );
    });

    it('is a 422 for a webhook url, and the endpoint is unchanged', async () => {
      const created = await request(app.url)
        .post('/api/agent/webhooks')
        .set(agent())
        .send({ url: 'https://example.com/hook', events: ['ticket.created'] })
        .expect(201);
      const id = created.body.data.id as number;
      expectRefused(
        await request(app.url)
          .patch(`/api/agent/webhooks/${id}`)
          .set(agent())
          .send({ url: null, is_active: false }),
        'url',
      );
      const read = await request(app.url).get(`/api/agent/webhooks/${id}`).set(agent()).expect(200);
      expect(read.body.data).toMatchObject({ url: 'https://example.com/hook', is_active: true });
    });

    it('keeps its documented meaning where the field is nullable (unassign a ticket)', async () => {
      const ticket = await request(app.url)
        .post('/api/agent/tickets')
        .set(agent())
        .send({ subject: 'S', description: 'D', assigned_agent_id: org.user.id })
        .expect(201);
      const res = await request(app.url)
        .patch(`/api/agent/tickets/${ticket.body.data.id}`)
        .set(agent())
        .send({ assigned_agent_id: null })
        .expect(200);
      expect(res.body.data.assigned_agent_id).toBeNull();
    });
  });

  describe('a number past 2^53 (found by the fuzz suite)', () => {
    it.each([
      ['agent_id', () => `/api/agent/conversations/${session.conversation_id}/assign`, agent],
      ['message_id', () => `/api/agent/conversations/${session.conversation_id}/read`, agent],
      ['agent_user_id', () => `/api/v1/conversations/${session.conversation_id}/close`, api],
      ['conversation_id', () => '/api/widget/reviews', widget],
    ])('is a 422 for %s, not a bigint overflow', async (field, path, auth) => {
      for (const value of [1e308, 2 ** 53, -(2 ** 63)]) {
        const res = await request(app.url)
          .post(path())
          .set(auth())
          .send({ rating: 5, body: 'Hi', [field]: value });
        expectRefused(res, field);
      }
    });
  });

  describe('a nested object of the wrong JSON type', () => {
    it.each([
      ['account', []],
      ['account', 'customers'],
      ['filter_record', []],
      ['filter_record', 7],
      ['connection', ['postgres']],
    ])('data-lookup %s as %j is a 422 naming it', async (field, value) => {
      const res = await request(app.url)
        .put(`/api/agent/sites/${org.site.id}/data-lookup`)
        .set(agent())
        .send({ enabled: false, [field]: value });
      expectRefused(res, field);
    });

    it('a body that is an array is a 422', async () => {
      const res = await request(app.url)
        .post('/api/v1/tickets')
        .set(api())
        .send([{ subject: 'S', description: 'D' }]);
      expect(res.status).toBe(422);
      expect(res.body.error_code).toBe('validation_failed');
    });
  });
});
