import { DateTime } from 'luxon';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Session {
  visitor_uid: string;
  visitor_id: number;
  session_token: string;
  conversation_id: number;
}

const KB = 1024;
const text = (bytes: number) => Buffer.alloc(bytes, 'a');

/**
 * Issue 25, points 2, 4, 5 and 9, against the whole app: what an anonymous visitor (anyone) can
 * do with a visitor UID, how much it can store and book, and that the widget's shutdown ends the
 * visitor's session on the server.
 */
describe('what anyone can do through the widget', () => {
  let suite: TestApp;
  let app: AppProcess;

  const bearer = (session: Session) => ({ Authorization: `Bearer ${session.session_token}` });
  const init = async (site: Registered['site'], extra: Record<string, unknown> = {}) =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key, ...extra })
        .expect(200)
    ).body as Session;
  const upload = (session: Session, bytes: number, address = '198.51.100.1') =>
    request(app.url)
      .post('/api/widget/attachments')
      .set(bearer(session))
      .set('X-Forwarded-For', address)
      .attach('file', text(bytes), { filename: 'notes.txt', contentType: 'text/plain' });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({
      // The tests name their client address in X-Forwarded-For; the proxy in front is loopback.
      TRUST_PROXY: 'loopback',
      VISITOR_UNSENT_UPLOADS_MAX: '3',
      VISITOR_UPLOAD_MB_PER_HOUR: '1',
      ADDRESS_UPLOAD_MB_PER_HOUR: '2',
      STORAGE_QUOTA_MB_PER_ORG: '3',
      BOOKINGS_PER_ADDRESS_PER_HOUR: '2',
      BOOKINGS_PER_SITE_PER_HOUR: '5',
      BOOKINGS_UNHANDLED_PER_SITE_MAX: '3',
    }));
  });

  afterAll(() => suite?.stop());

  it("takes only the session token on the routes added beside the spec's", async () => {
    const org = await registerOrganization(app.url);
    const session = await init(org.site);
    const byUid = { widget_key: org.site.widget_key, visitor_uid: session.visitor_uid };
    const routes: [string, string, Record<string, unknown>][] = [
      ['post', '/api/widget/messages', { body: 'Hi' }],
      ['get', '/api/widget/messages', {}],
      ['post', '/api/widget/read', { conversation_id: session.conversation_id, message_id: 1 }],
      ['post', '/api/widget/reviews', { rating: 5 }],
      ['post', '/api/widget/end-chat', {}],
      ['post', '/api/widget/tickets', { subject: 'Hi', description: 'Hello' }],
      ['post', '/api/widget/offline-messages', { email: 'a@example.com', message: 'Hi' }],
      ['post', '/api/widget/attachments', {}],
      ['post', '/api/widget/email', { email: 'a@example.com' }],
      ['post', '/api/widget/transcript', { email: 'a@example.com' }],
      ['post', '/api/widget/session/end', {}],
    ];
    for (const [method, path, body] of routes) {
      const res =
        method === 'get'
          ? await request(app.url).get(path).query(byUid)
          : await request(app.url)
              .post(path)
              .send({ ...byUid, ...body });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 401`);
      expect(res.body.error_code).toBe('unauthenticated');
    }
    // The spec's routes keep taking the key and the UID.
    const profile = await request(app.url)
      .post('/api/widget/profile')
      .send({ ...byUid, name: 'Ada', email: 'ada@example.com' });
    expect(profile.body).toMatchObject({ status: true });
    // And the visitor panel no longer hands the UID out.
    await request(app.url).post('/api/widget/messages').set(bearer(session)).send({ body: 'Hi' });
    const panel = await request(app.url)
      .get(`/api/agent/visitors/${session.visitor_id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    expect(panel.body.data).not.toHaveProperty('visitor_uid');
  });

  it('resumes a visitor by its session token, and ends the session on the server for good', async () => {
    const org = await registerOrganization(app.url);
    const session = await init(org.site);
    const initWith = async (token: Session) =>
      (
        await request(app.url)
          .post('/api/widget/init')
          .set(bearer(token))
          .send({ widget_key: org.site.widget_key })
          .expect(200)
      ).body as Session;
    const resumed = await initWith(session);
    expect(resumed.visitor_id).toBe(session.visitor_id);

    const socket = await connect(suite.direct, '/widget', session.session_token);
    const closed = new Promise<void>((resolve) => socket.socket.on('disconnect', () => resolve()));
    await request(app.url)
      .post('/api/widget/session/end')
      .set(bearer(resumed))
      .expect(200, /"ended":true/);
    await closed;

    // Every token of the visitor, old or new, and its UID are dead; a new init is a new visitor.
    for (const token of [session.session_token, resumed.session_token]) {
      await request(app.url)
        .get('/api/widget/messages')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      await expect(connect(suite.direct, '/widget', token)).rejects.toThrow('Unauthenticated.');
    }
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_uid: session.visitor_uid })
      .expect(404);
    const fresh = await initWith(session);
    expect(fresh.visitor_id).not.toBe(session.visitor_id);
  });

  it('caps unsent uploads per visitor, bytes per visitor and per client address, and storage per organization', async () => {
    const org = await registerOrganization(app.url);
    const first = await init(org.site);
    for (let i = 0; i < 3; i += 1) await upload(first, 10 * KB).expect(201);
    const fourth = await upload(first, 10 * KB).expect(429);
    expect(fourth.body).toMatchObject({ error_code: 'rate_limited' });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);

    // One megabyte a visitor per hour, whether or not the files were sent.
    const second = await init(org.site);
    await upload(second, 700 * KB).expect(201);
    await upload(second, 400 * KB).expect(429);

    // Two megabytes per client address: new visitors from the same address do not reset it.
    const third = await init(org.site);
    await upload(third, 900 * KB).expect(201);
    await upload(await init(org.site), 500 * KB).expect(429);
    await upload(await init(org.site), 500 * KB, '198.51.100.2').expect(201);

    // Three megabytes for the organization, agents' files included: past it, a 413.
    const agentUpload = await request(app.url)
      .post('/api/agent/attachments')
      .set('Authorization', `Bearer ${org.token}`)
      .attach('file', text(1000 * KB), { filename: 'big.txt', contentType: 'text/plain' });
    expect(agentUpload.status).toBe(413);
    expect(agentUpload.body).toMatchObject({ error_code: 'payload_too_large' });
    expect(agentUpload.body.message).toMatch(/storage/);
  });

  it('caps bookings per client address, per site and per site unhandled, with a 429', async () => {
    const org = await registerOrganization(app.url);
    await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        working_hours: Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
            (day) => [day, [{ start: '00:00', end: '24:00' }]],
          ),
        ),
      })
      .expect(200);
    const date = DateTime.utc().startOf('day').plus({ days: 3 }).toISODate() ?? '';
    const slots = (
      await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: org.site.widget_key, date })
        .expect(200)
    ).body.slots as { starts_at: string }[];
    let next = 0;
    const book = async (address: string, status: number) => {
      const res = await request(app.url)
        .post('/api/widget/appointments/book')
        .set(bearer(await init(org.site)))
        .set('X-Forwarded-For', address)
        .send({ scheduled_at: slots[next++].starts_at, visitor_name: 'Mallory' });
      expect(res.status).toBe(status);
      return res;
    };

    // Two an hour from one client address, however many visitors it makes.
    await book('198.51.100.10', 201);
    await book('198.51.100.10', 201);
    const third = await book('198.51.100.10', 429);
    expect(third.body).toMatchObject({ error_code: 'rate_limited' });
    // Three upcoming bookings nobody has handled yet, over all addresses.
    await book('198.51.100.11', 201);
    await book('198.51.100.12', 429);
    // An agent handling one makes room; the site's five an hour then run out.
    const list = await request(app.url)
      .get('/api/agent/appointments')
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    await request(app.url)
      .patch(`/api/agent/appointments/${list.body.data[0].id as number}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ status: 'confirmed', notes: 'Called back' })
      .expect(200);
    await book('198.51.100.13', 201);
    await book('198.51.100.14', 429);
  });
});
