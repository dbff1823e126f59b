import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';

interface Session {
  visitor_uid: string;
  visitor_id: number;
  session_token: string;
  conversation_id: number;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The widget API beyond a plain chat (live-chat.e2e-spec.ts): origin checks, mobile apps, the
 * pre-chat form, every way its credentials are refused, missed chats and widget tickets.
 */
describe('widget API', () => {
  let suite: TestApp;
  let databaseUrl: string;
  const secretsKey = randomBytes(32);
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const agent = (token = org.token) => ({ Authorization: `Bearer ${token}` });
  const bearer = (session: Session) => ({ Authorization: `Bearer ${session.session_token}` });

  const init = async (body: Record<string, unknown> = {}, site = org.site): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key, ...body })
        .expect(200)
    ).body as Session;

  const open = async (namespace: '/widget' | '/agent', token: string, origin?: string) => {
    const socket = await connect(direct, namespace, token, { origin });
    sockets.push(socket);
    return socket;
  };

  const patchSite = (owner: Registered, body: Record<string, unknown>) =>
    request(app.url)
      .patch(`/api/agent/sites/${owner.site.id}`)
      .set(agent(owner.token))
      .send(body)
      .expect(200);

  /** Runs a platform administration command (`org:plan`, `org:subscription`) of the CLI. */
  const cli = (...args: string[]) => {
    const result = runCli(args, { DATABASE_URL: databaseUrl });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  };

  const say = (session: Session, body: string) =>
    request(app.url).post('/api/widget/messages').set(bearer(session)).send({ body });

  beforeAll(async () => {
    ({ app, db, direct, databaseUrl } = suite = await startTestApp({
      SECRETS_KEY: secretsKey.toString('hex'),
      MISSED_CHAT_SECONDS: '1',
      SUBSCRIPTION_GRACE_DAYS: '7',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  describe('origins', () => {
    let shop: Registered;
    let session: Session;

    beforeAll(async () => {
      shop = await registerOrganization(app.url, 'Shop');
      await patchSite(shop, {
        allowed_domains: ['shop.example', '*.example.org', 'app:com.example.shop'],
      });
      session = await init({}, shop.site);
    });

    const initFrom = (origin: string) =>
      request(app.url)
        .post('/api/widget/init')
        .set('Origin', origin)
        .send({ widget_key: shop.site.widget_key });

    it('refuses browser origins outside allowed_domains with 403, on every widget route', async () => {
      for (const origin of [
        'https://evil.example',
        'https://www.shop.example',
        'https://example.org',
        'https://notexample.org',
        'null',
      ]) {
        const res = await initFrom(origin).expect(403);
        expect(res.body).toMatchObject({ status: false, code: '403', error_code: 'forbidden' });
      }
      const evil = 'https://evil.example';
      await request(app.url)
        .get('/api/widget/config')
        .query({ widget_key: shop.site.widget_key })
        .set('Origin', evil)
        .expect(403);
      await say(session, 'Hello').set('Origin', evil).expect(403);
      await request(app.url)
        .post('/api/widget/profile')
        .set('Origin', evil)
        .send({ widget_key: shop.site.widget_key, visitor_uid: session.visitor_uid, name: 'X' })
        .expect(403);
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM messages m
        JOIN conversations c ON c.id = m.conversation_id WHERE c.visitor_id = $1`,
        [session.visitor_id],
      );
      expect(rows[0].n).toBe(0);
    });

    it('accepts listed hosts, their *. subdomains on any port, and calls without Origin', async () => {
      for (const origin of [
        'https://shop.example',
        'http://shop.example:8080',
        'https://www.example.org',
        'https://a.b.example.org',
      ]) {
        await initFrom(origin).expect(200);
      }
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: shop.site.widget_key })
        .expect(200);
      await say(session, 'From the shop').set('Origin', 'https://shop.example').expect(201);
    });

    it('honours a port named in an entry', async () => {
      const local = await registerOrganization(app.url, 'Local dev');
      await patchSite(local, { allowed_domains: ['localhost:3000'] });
      const from = (origin: string) =>
        request(app.url)
          .post('/api/widget/init')
          .set('Origin', origin)
          .send({ widget_key: local.site.widget_key });
      await from('http://localhost:3000').expect(200);
      await from('http://localhost:3001').expect(403);
    });

    it('accepts any origin on a site that lists no host', async () => {
      const open = await registerOrganization(app.url, 'Open');
      await request(app.url)
        .post('/api/widget/init')
        .set('Origin', 'https://anything.example')
        .send({ widget_key: open.site.widget_key })
        .expect(200);
      // App entries alone do not restrict browsers.
      await patchSite(open, { allowed_domains: ['app:com.example.open'] });
      await request(app.url)
        .post('/api/widget/init')
        .set('Origin', 'https://anything.example')
        .send({ widget_key: open.site.widget_key })
        .expect(200);
    });

    it('answers CORS preflights and requests with the reflected origin', async () => {
      for (const origin of ['https://shop.example', 'https://evil.example']) {
        const preflight = await request(app.url)
          .options('/api/widget/init')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'content-type,authorization')
          .expect(204);
        expect(preflight.headers['access-control-allow-origin']).toBe(origin);
        expect(preflight.headers['access-control-allow-methods']).toContain('POST');
        expect(preflight.headers['access-control-allow-headers']).toMatch(/authorization/i);
      }
      // The guard, not CORS, refuses: the header only lets the browser read the answer.
      const ok = await initFrom('https://shop.example').expect(200);
      expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example');
    });

    it('refuses a /widget socket from a bad origin and accepts a listed one', async () => {
      await expect(
        connect(direct, '/widget', session.session_token, { origin: 'https://evil.example' }),
      ).rejects.toThrow('Unauthenticated.');
      const socket = await open('/widget', session.session_token, 'https://www.example.org');
      expect(socket.socket.connected).toBe(true);
    });
  });

  describe('mobile init', () => {
    let mobile: Registered;

    beforeAll(async () => {
      mobile = await registerOrganization(app.url, 'Mobile');
      await patchSite(mobile, { allowed_domains: ['shop.example', 'app:com.example.shop'] });
    });

    const initApp = (body: Record<string, unknown>) =>
      request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: mobile.site.widget_key, ...body });

    it('needs an app_id with a platform, and one the site lists', async () => {
      const missing = await initApp({ platform: 'ios' }).expect(422);
      expect(Object.keys(missing.body.errors)).toEqual(['app_id']);
      const unknown = await initApp({ platform: 'android', app_id: 'com.example.other' }).expect(
        403,
      );
      expect(unknown.body.error_code).toBe('forbidden');
      // A host entry is not an app entry.
      await initApp({ platform: 'android', app_id: 'shop.example' }).expect(403);
      const bad = await initApp({ platform: 'windows-phone', app_id: 'com.example.shop' }).expect(
        422,
      );
      expect(Object.keys(bad.body.errors)).toEqual(['platform']);
    });

    it('opens a session for a listed app and keeps its version and build', async () => {
      const first = (
        await initApp({
          platform: 'react-native',
          app_id: 'com.example.shop',
          app_version: '2.4.1',
          app_build: '241',
        }).expect(200)
      ).body as Session;
      const row = async () =>
        (
          await db.query(
            `SELECT platform, app_id, app_version, app_build FROM visitors WHERE id = $1`,
            [first.visitor_id],
          )
        ).rows[0];
      expect(await row()).toEqual({
        platform: 'react-native',
        app_id: 'com.example.shop',
        app_version: '2.4.1',
        app_build: '241',
      });
      // An update sends the new version; a field left out keeps its value.
      await initApp({
        visitor_uid: first.visitor_uid,
        platform: 'react-native',
        app_id: 'com.example.shop',
        app_version: '2.5.0',
      }).expect(200);
      expect(await row()).toMatchObject({ app_version: '2.5.0', app_build: '241' });
    });
  });

  describe('pre-chat profile', () => {
    let form: Registered;

    beforeAll(async () => {
      form = await registerOrganization(app.url, 'Form');
      await patchSite(form, {
        widget_settings: {
          pre_chat_form: {
            enabled: true,
            fields: [
              { key: 'name', type: 'text', label: 'Name', required: false },
              { key: 'email', type: 'email', label: 'Email', required: true },
              { key: 'phone', type: 'tel', label: 'Phone', required: false },
              { key: 'company', type: 'text', label: 'Company', required: true },
              { key: 'order_number', type: 'text', label: 'Order number', required: false },
            ],
          },
        },
      });
    });

    const profile = (session: Session, body: Record<string, unknown>) =>
      request(app.url)
        .post('/api/widget/profile')
        .send({ widget_key: form.site.widget_key, visitor_uid: session.visitor_uid, ...body });

    const customFields = async (session: Session) =>
      (
        await db.query<{ custom_fields: Record<string, string> }>(
          `SELECT custom_fields FROM visitors WHERE id = $1`,
          [session.visitor_id],
        )
      ).rows[0].custom_fields;

    it('names every missing required field, built-in or custom, in a 422', async () => {
      const session = await init({}, form.site);
      const started = await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: form.site.widget_key, visitor_uid: session.visitor_uid })
        .expect(200);
      expect(started.body.widget_config.pre_chat_form).toMatchObject({
        enabled: true,
        fields: expect.arrayContaining([
          { key: 'email', type: 'email', label: 'Email', required: true, builtin: true },
          { key: 'company', type: 'text', label: 'Company', required: true, builtin: false },
        ]),
      });
      expect(started.body.visitor_profile).toMatchObject({
        profile_complete: false,
        pre_chat_submitted: false,
      });

      const none = await profile(session, { name: 'Ada' }).expect(422);
      expect(none.body).toMatchObject({ status: false, error_code: 'validation_failed' });
      expect(Object.keys(none.body.errors).sort()).toEqual(['custom_fields.company', 'email']);

      const noCompany = await profile(session, {
        email: 'ada@example.com',
        custom_fields: { company: '   ' },
      }).expect(422);
      expect(Object.keys(noCompany.body.errors)).toEqual(['custom_fields.company']);

      const badEmail = await profile(session, {
        email: 'not-an-email',
        custom_fields: { company: 'Analytical Engines' },
      }).expect(422);
      expect(Object.keys(badEmail.body.errors)).toEqual(['email']);

      const wrongType = await profile(session, {
        email: 'ada@example.com',
        custom_fields: { company: 42 },
      }).expect(422);
      expect(Object.keys(wrongType.body.errors)).toEqual(['custom_fields.company']);
      await profile(session, { email: 'ada@example.com', custom_fields: ['x'] }).expect(422);

      // Nothing was stored by the refused submissions.
      expect(await customFields(session)).toEqual({});
      const row = await db.query(
        `SELECT name, email, pre_chat_submitted FROM visitors WHERE id = $1`,
        [session.visitor_id],
      );
      expect(row.rows[0]).toEqual({ name: null, email: null, pre_chat_submitted: false });
    });

    it('stores a complete submission, its defined custom fields only', async () => {
      const session = await init({}, form.site);
      const res = await profile(session, {
        name: 'Ada',
        email: 'ada@example.com',
        custom_fields: { company: 'Analytical Engines', favourite_colour: 'blue' },
      }).expect(200);
      expect(res.body).toMatchObject({
        status: true,
        visitor_profile: {
          name: 'Ada',
          email: 'ada@example.com',
          phone: '',
          profile_complete: true,
          pre_chat_submitted: true,
          account_login: { logged_in: false, identifier: null, verified_at: null },
        },
      });
      expect(await customFields(session)).toEqual({ company: 'Analytical Engines' });
      const resumed = await init({ visitor_uid: session.visitor_uid }, form.site);
      expect((resumed as unknown as { visitor_profile: object }).visitor_profile).toMatchObject({
        profile_complete: true,
        pre_chat_submitted: true,
      });
    });

    it('takes the session token instead of widget_key and visitor_uid, and merges what is known', async () => {
      const session = await init({ visitor_email: 'grace@example.com' }, form.site);
      // The email is known from init, so the company alone completes the form.
      const res = await request(app.url)
        .post('/api/widget/profile')
        .set(bearer(session))
        .send({ custom_fields: { company: 'Navy' } })
        .expect(200);
      expect(res.body.visitor_profile).toMatchObject({
        email: 'grace@example.com',
        profile_complete: true,
        pre_chat_submitted: true,
      });
      // A later submission adds to the custom fields and keeps the earlier ones.
      await request(app.url)
        .post('/api/widget/profile')
        .set(bearer(session))
        .send({ phone: '+1 555 0100', custom_fields: { order_number: 'A-17' } })
        .expect(200);
      expect(await customFields(session)).toEqual({ company: 'Navy', order_number: 'A-17' });
      const row = await db.query(`SELECT phone FROM visitors WHERE id = $1`, [session.visitor_id]);
      expect(row.rows[0].phone).toBe('+1 555 0100');
    });
  });

  describe('refused credentials', () => {
    /** The widget session key: derived from the master key with HKDF (docs/decisions.md). */
    const secret = () =>
      Buffer.from(
        hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'support-chat widget session', 32),
      );

    /** A session token made as WidgetSessionService makes them, issued at `issuedAt`. */
    const signToken = (session: Session, owner: Registered, issuedAt: Date) => {
      const payload = Buffer.from(
        JSON.stringify({
          v: String(session.visitor_id),
          s: String(owner.site.id),
          o: String(owner.organization.id),
          t: Math.floor(issuedAt.getTime() / 1000),
        }),
      ).toString('base64url');
      const signature = createHmac('sha256', secret()).update(payload).digest('base64url');
      return `wst_${payload}.${signature}`;
    };

    it('needs a widget_key (422) that names an active site (404)', async () => {
      const missing = await request(app.url).post('/api/widget/init').send({}).expect(422);
      expect(Object.keys(missing.body.errors)).toEqual(['widget_key']);
      const noKey = await request(app.url)
        .post('/api/widget/profile')
        .send({ name: 'Hi' })
        .expect(422);
      expect(Object.keys(noKey.body.errors)).toEqual(['widget_key']);
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: 'wk_unknown' })
        .expect(404);
      await request(app.url)
        .post('/api/widget/tickets')
        .send({ widget_key: 'wk_unknown', visitor_uid: '00000000-0000-4000-8000-000000000000' })
        .expect(401);

      const closing = await registerOrganization(app.url, 'Closing');
      const session = await init({}, closing.site);
      await patchSite(closing, { is_active: false });
      const notFound = await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: closing.site.widget_key })
        .expect(404);
      expect(notFound.body).toMatchObject({ error_code: 'not_found', message: 'Not found.' });
      await say(session, 'Still there?').expect(404);
      await expect(connect(direct, '/widget', session.session_token)).rejects.toThrow(
        'Unauthenticated.',
      );
    });

    it('answers 402 once the subscription is past its grace period', async () => {
      const lapsed = await registerOrganization(app.url, 'Lapsed');
      const session = await init({}, lapsed.site);
      cli(
        'org:subscription',
        String(lapsed.organization.id),
        new Date(Date.now() - 6 * DAY).toISOString(),
      );
      await say(session, 'In the grace period').expect(201);
      cli(
        'org:subscription',
        String(lapsed.organization.id),
        new Date(Date.now() - 8 * DAY).toISOString(),
      );
      const expired = await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: lapsed.site.widget_key })
        .expect(402);
      expect(expired.body).toMatchObject({ code: '402', error_code: 'subscription_expired' });
      await say(session, 'After it').expect(402);
      await request(app.url)
        .post('/api/widget/profile')
        .set(bearer(session))
        .send({ name: 'Late' })
        .expect(402);
      await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({ subject: 'Late', description: 'Too late' })
        .expect(402);
      // The socket is held to the same subscription as HTTP.
      await expect(connect(direct, '/widget', session.session_token)).rejects.toThrow(
        'Unauthenticated.',
      );
    });

    it('refuses forged, malformed and expired session tokens with 401', async () => {
      const session = await init();
      const fresh = signToken(session, org, new Date());
      // The token is made the way the service makes it: a fresh one works.
      await say({ ...session, session_token: fresh }, 'Signed here').expect(201);

      const expired = signToken(session, org, new Date(Date.now() - 31 * DAY));
      const [payload] = session.session_token.slice(4).split('.');
      const forged = `wst_${payload}.${Buffer.alloc(32).toString('base64url')}`;
      for (const token of [
        expired,
        forged,
        `${session.session_token}.extra`,
        session.session_token.replace(/^wst_/, 'wsx_'),
        'wst_',
        org.token,
      ]) {
        const res = await say({ ...session, session_token: token }, 'x').expect(401);
        expect(res.body).toMatchObject({
          error_code: 'unauthenticated',
          message: 'Unauthenticated.',
        });
      }
      await expect(connect(direct, '/widget', expired)).rejects.toThrow('Unauthenticated.');

      // init and config go by the widget key alone: a widget holding a lapsed token refreshes it.
      const renewed = await request(app.url)
        .post('/api/widget/init')
        .set('Authorization', `Bearer ${expired}`)
        .send({ widget_key: org.site.widget_key, visitor_uid: session.visitor_uid })
        .expect(200);
      expect(renewed.body.visitor_uid).toBe(session.visitor_uid);
      await request(app.url)
        .get('/api/widget/config')
        .set('Authorization', `Bearer ${forged}`)
        .query({ widget_key: org.site.widget_key })
        .expect(200);
    });

    it('checks message bodies: at most 5000 characters, not empty, a string', async () => {
      const session = await init();
      await say(session, 'x'.repeat(5000)).expect(201);
      const long = await say(session, 'x'.repeat(5001)).expect(422);
      expect(Object.keys(long.body.errors)).toEqual(['body']);
      await say(session, '').expect(422);
      await request(app.url)
        .post('/api/widget/messages')
        .set(bearer(session))
        .send({ body: 42 })
        .expect(422);
      await request(app.url).post('/api/widget/messages').set(bearer(session)).send({}).expect(422);
      const widget = await open('/widget', session.session_token);
      await expect(widget.ask('message', { body: 'y'.repeat(5001) })).resolves.toMatchObject({
        status: false,
        error_code: 'validation_failed',
      });
    });

    it("refuses another site's visitor and a visitor_uid that is not one", async () => {
      const other = await registerOrganization(app.url, 'Elsewhere');
      const session = await init();
      await request(app.url)
        .post('/api/widget/profile')
        .send({ widget_key: other.site.widget_key, visitor_uid: session.visitor_uid, name: 'X' })
        .expect(404);
      await request(app.url)
        .post('/api/widget/profile')
        .send({ widget_key: org.site.widget_key, visitor_uid: 'not-a-uuid', name: 'X' })
        .expect(404);
    });
  });

  describe('missed chats', () => {
    const status = async (conversationId: number) =>
      (
        await request(app.url)
          .get(`/api/agent/conversations/${conversationId}`)
          .set(agent())
          .expect(200)
      ).body.data as { status: string; assigned_agent_id: number | null };

    const missedEvents = async (conversationId: number) =>
      (await outboxEvents(db, 'chat.missed')).filter((e) => e.conversation_id === conversationId);

    it('marks an unanswered chat missed, announces it, and an agent reply makes it active', async () => {
      const inbox = await open('/agent', org.token);
      const session = await init();
      const widget = await open('/widget', session.session_token);
      await say(session, 'Is anyone there?').expect(201);

      await eventually(async () => (await status(session.conversation_id)).status === 'missed');
      await eventually(async () => (await missedEvents(session.conversation_id)).length > 0);
      expect(await missedEvents(session.conversation_id)).toEqual([
        {
          organization_id: org.organization.id,
          conversation_id: session.conversation_id,
          site_id: org.site.id,
          visitor_id: session.visitor_id,
        },
      ]);
      const update = {
        conversation_id: session.conversation_id,
        status: 'missed',
        assigned_agent_id: null,
        closed_at: null,
      };
      const isMissed = (u: { conversation_id: number; status: string }) =>
        u.conversation_id === session.conversation_id && u.status === 'missed';
      await expect(inbox.next('conversation.updated', isMissed)).resolves.toEqual(update);
      await expect(widget.next('conversation.updated', isMissed)).resolves.toEqual(update);
      const listed = await request(app.url)
        .get('/api/agent/conversations?status=missed')
        .set(agent())
        .expect(200);
      expect(listed.body.data.map((c: { id: number }) => c.id)).toContain(session.conversation_id);

      // The visitor writing again does not revive it; an agent's reply does.
      await say(session, 'Hello?').expect(201);
      expect((await status(session.conversation_id)).status).toBe('missed');
      await request(app.url)
        .post(`/api/agent/conversations/${session.conversation_id}/messages`)
        .set(agent())
        .send({ body: 'Sorry for the wait!' })
        .expect(201);
      expect(await status(session.conversation_id)).toMatchObject({
        status: 'active',
        assigned_agent_id: org.user.id,
      });
      await inbox.next(
        'conversation.updated',
        (u: { conversation_id: number; status: string }) =>
          u.conversation_id === session.conversation_id && u.status === 'active',
      );
      expect(await missedEvents(session.conversation_id)).toHaveLength(1);
    });

    it('leaves answered, assigned and unstarted chats alone when the timer would fire', async () => {
      const unanswered = await init();
      const answered = await init();
      const assigned = await init();
      const unstarted = await init();
      for (const session of [unanswered, answered, assigned]) {
        await say(session, 'Help, please').expect(201);
      }
      await request(app.url)
        .post(`/api/agent/conversations/${answered.conversation_id}/messages`)
        .set(agent())
        .send({ body: 'On it.' })
        .expect(201);
      await request(app.url)
        .post(`/api/agent/conversations/${assigned.conversation_id}/assign`)
        .set(agent())
        .send({})
        .expect(200);

      // The chat nobody answered shows the timer fired; give the others' timers time as well.
      await eventually(async () => (await missedEvents(unanswered.conversation_id)).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const session of [answered, assigned]) {
        expect((await status(session.conversation_id)).status).toBe('active');
        expect(await missedEvents(session.conversation_id)).toEqual([]);
      }
      expect(await missedEvents(unstarted.conversation_id)).toEqual([]);
      const row = await db.query(`SELECT status FROM conversations WHERE id = $1`, [
        unstarted.conversation_id,
      ]);
      expect(row.rows[0].status).toBe('waiting');
    });
  });

  describe('tickets', () => {
    const ticketEvents = async (ticketId: number) =>
      (await outboxEvents(db, 'ticket.created')).filter(
        (e) => (e.ticket as { id: number }).id === ticketId,
      );

    it('raises a ticket linked to the visitor, announced and visible on the desk', async () => {
      const session = await init({ visitor_name: 'Vera', visitor_email: 'vera@example.com' });
      const res = await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({
          subject: 'Invoice missing',
          description: 'I cannot find my March invoice.',
          priority: 'urgent',
        })
        .expect(201);
      expect(res.body).toEqual({
        status: true,
        message: 'Ticket created.',
        code: '201',
        datetime: expect.any(String),
        data: {
          id: expect.any(Number),
          ticket_number: expect.stringMatching(/^TKT-\d{4}-\d{6}$/),
          subject: 'Invoice missing',
          description: 'I cannot find my March invoice.',
          status: 'open',
          // Visitors do not set the priority.
          priority: 'normal',
          source: 'widget',
          visitor_id: session.visitor_id,
          customer_name: 'Vera',
          customer_email: 'vera@example.com',
          created_at: expect.any(String),
        },
      });
      const ticket = res.body.data as { id: number; ticket_number: string };
      expect(await ticketEvents(ticket.id)).toEqual([
        {
          organization_id: org.organization.id,
          ticket: {
            id: ticket.id,
            ticket_number: ticket.ticket_number,
            subject: 'Invoice missing',
            status: 'open',
            priority: 'normal',
            source: 'widget',
          },
        },
      ]);
      const desk = await request(app.url)
        .get(`/api/agent/tickets/${ticket.id}`)
        .set(agent())
        .expect(200);
      expect(desk.body.data).toMatchObject({
        id: ticket.id,
        source: 'widget',
        site_id: org.site.id,
        visitor_id: session.visitor_id,
        customer_name: 'Vera',
        customer_email: 'vera@example.com',
        assigned_agent_id: null,
        comments: [],
      });
    });

    it('takes name and email from the body, by the session token only', async () => {
      const session = await init({ visitor_name: 'Vera' });
      await request(app.url)
        .post('/api/widget/tickets')
        .send({
          widget_key: org.site.widget_key,
          visitor_uid: session.visitor_uid,
          subject: 'Refund',
          description: 'Please refund order 17.',
        })
        .expect(401);
      const res = await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({
          subject: 'Refund',
          description: 'Please refund order 17.',
          name: 'Vera V.',
          email: 'vera.v@example.com',
        })
        .expect(201);
      expect(res.body.data).toMatchObject({
        visitor_id: session.visitor_id,
        customer_name: 'Vera V.',
        customer_email: 'vera.v@example.com',
      });
      const anonymous = await init();
      const unknown = await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(anonymous))
        .send({ subject: 'Hi', description: 'Who am I?' })
        .expect(201);
      expect(unknown.body.data).toMatchObject({ customer_name: null, customer_email: null });
    });

    it('validates the body', async () => {
      const session = await init();
      const post = (body: Record<string, unknown>) =>
        request(app.url).post('/api/widget/tickets').set(bearer(session)).send(body).expect(422);
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['description', 'subject']],
        [{ subject: 'S' }, ['description']],
        [{ subject: '', description: 'D' }, ['subject']],
        [{ subject: 's'.repeat(256), description: 'D' }, ['subject']],
        [{ subject: 'S', description: 'd'.repeat(10001) }, ['description']],
        [{ subject: 'S', description: 'D', email: 'nope' }, ['email']],
        [{ subject: 'S', description: 'D', name: 'n'.repeat(256) }, ['name']],
        [{ subject: 42, description: 'D' }, ['subject']],
      ];
      for (const [body, fields] of cases) {
        const res = await post(body);
        expect(Object.keys(res.body.errors).sort()).toEqual(fields);
      }
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM tickets WHERE visitor_id = $1`,
        [session.visitor_id],
      );
      expect(rows[0].n).toBe(0);
      await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({ subject: 's'.repeat(255), description: 'd'.repeat(10000) })
        .expect(201);
    });

    it('refuses with 403 feature_not_in_plan when ticketing is not on the plan', async () => {
      const free = await registerOrganization(app.url, 'Free');
      const session = await init({}, free.site);
      cli('org:plan', String(free.organization.id), 'free');
      const res = await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({ subject: 'S', description: 'D' })
        .expect(403);
      expect(res.body).toMatchObject({
        status: false,
        code: '403',
        error_code: 'feature_not_in_plan',
        message: expect.stringContaining('Ticketing'),
      });
      // Nothing was filed or announced.
      const filed = await db.query(`SELECT id FROM tickets WHERE visitor_id = $1`, [
        session.visitor_id,
      ]);
      expect(filed.rows).toEqual([]);
      const announced = await outboxEvents(db, 'ticket.created');
      expect(announced.filter((e) => e.organization_id === free.organization.id)).toEqual([]);
      // Chat keeps working on that plan.
      await say(session, 'Can we chat instead?').expect(201);
      cli('org:plan', String(free.organization.id), 'pro');
      await request(app.url)
        .post('/api/widget/tickets')
        .set(bearer(session))
        .send({ subject: 'S', description: 'D' })
        .expect(201);
    });
  });
});
