import { DateTime } from 'luxon';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { createOwnerDatabase, type OwnerDatabase, shopSettings } from '../utils/owner-database';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { connect, type TestSocket } from '../utils/sockets';

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
}

/**
 * A documentation address (TEST-NET-3) of its own for each call that must not share a budget:
 * each call gets the next one, never a random pick (two picks of the same address let one test's
 * spent budget refuse another's call).
 */
let addresses = 0;
const someAddress = () => {
  addresses += 1;
  if (addresses > 254) throw new Error('TEST-NET-3 has 254 addresses; this suite needs more');
  return `203.0.113.${addresses}`;
};

/**
 * Issue 15: every limit on what anyone can call bites, with a small budget: a 429 `Too Many
 * Attempts.` with Retry-After for the throttles, a 409 for the caps. The app believes
 * X-Forwarded-For from the loopback proxy in front of it (TRUST_PROXY), so each test can speak
 * from an address of its own.
 */
describe('throttles and caps', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  /** A widget call from a fresh address, so only the limit under test counts. */
  const widget = (path: string, from = someAddress()) =>
    request(app.url).post(path).set('X-Forwarded-For', from);

  /** A new organization, registered from an address of its own (sign-ups are limited). */
  const organization = async (name: string): Promise<Registered> => {
    const password = 'long enough password';
    const res = await request(app.url)
      .post('/api/agent/auth/register')
      .set('X-Forwarded-For', someAddress())
      .send({
        organization_name: name,
        name: 'Olivia Owner',
        email: uniqueEmail('owner'),
        password,
      })
      .expect(201);
    return { ...(res.body as Omit<Registered, 'password'>), password };
  };

  const init = async (site = org.site): Promise<Session> =>
    (await widget('/api/widget/init').send({ widget_key: site.widget_key }).expect(200))
      .body as Session;

  const expectTooMany = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({
      status: false,
      code: '429',
      error_code: 'rate_limited',
      message: 'Too Many Attempts.',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    return Number(res.headers['retry-after']);
  };

  beforeAll(async () => {
    ({ app, direct } = suite = await startTestApp((databaseUrl) => ({
      TRUST_PROXY: 'loopback',
      // The site owner's test database lives on the same server as this service's.
      DATA_LOOKUP_ALLOWED_HOSTS: new URL(databaseUrl).host,
      SIGNUP_LIMIT_PER_HOUR: '3',
      WIDGET_LIMIT_PER_MINUTE: '5',
      VISITOR_MESSAGE_LIMIT_PER_MINUTE: '3',
      TRUSTED_LOGIN_LIMIT_PER_MINUTE: '2',
      OTP_MAIL_LIMIT_PER_HOUR: '2',
      SOCKET_EVENTS_PER_SECOND: '1',
      SOCKET_EVENT_BURST: '3',
      WEBHOOK_ENDPOINTS_MAX: '2',
      BOOKINGS_PER_VISITOR_MAX: '1',
    })));
    org = await organization('Throttled Inc.');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  it('limits sign-ups per client address (SIGNUP_LIMIT_PER_HOUR)', async () => {
    const from = someAddress();
    const register = (address: string) =>
      request(app.url)
        .post('/api/agent/auth/register')
        .set('X-Forwarded-For', address)
        .send({
          organization_name: 'Many Signups',
          name: 'Sam',
          email: uniqueEmail('signup'),
          password: 'long enough password',
        });
    for (let i = 0; i < 3; i += 1) await register(from).expect(201);
    const retryAfter = expectTooMany(await register(from));
    expect(retryAfter).toBeGreaterThan(3000);
    await register('198.51.100.1').expect(201);
  });

  it('limits widget calls per client address and site (WIDGET_LIMIT_PER_MINUTE)', async () => {
    const from = someAddress();
    for (let i = 0; i < 5; i += 1)
      await widget('/api/widget/init', from).send({ widget_key: org.site.widget_key }).expect(200);
    const retryAfter = expectTooMany(
      await widget('/api/widget/init', from).send({ widget_key: org.site.widget_key }),
    );
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address, or another site from the same address, has its own budget.
    await init();
    const other = await organization('Other Site Inc.');
    await widget('/api/widget/init', from).send({ widget_key: other.site.widget_key }).expect(200);
  });

  it('limits messages per visitor over HTTP and the socket together (VISITOR_MESSAGE_LIMIT_PER_MINUTE)', async () => {
    const session = await init();
    const send = (body: string) =>
      widget('/api/widget/messages').set(bearer(session.session_token)).send({ body });
    for (let i = 0; i < 3; i += 1) await send(`message ${i}`).expect(201);
    expectTooMany(await send('one too many'));
    const socket = await connect(direct, '/widget', session.session_token);
    sockets.push(socket);
    await expect(socket.ask('message', { body: 'over the socket' })).resolves.toMatchObject({
      status: false,
      error_code: 'rate_limited',
      message: 'Too Many Attempts.',
    });
    // Another visitor still talks.
    const other = await init();
    await widget('/api/widget/messages')
      .set(bearer(other.session_token))
      .send({ body: 'hello' })
      .expect(201);
  });

  it('gives each socket connection a token bucket (SOCKET_EVENT_BURST, SOCKET_EVENTS_PER_SECOND)', async () => {
    const session = await init();
    const socket = await connect(direct, '/widget', session.session_token);
    sockets.push(socket);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        socket.ask<{ status: boolean; error_code?: string }>('typing', { is_typing: true }),
      ),
    );
    expect(answers.filter((a) => a.status)).toHaveLength(3);
    expect(answers.filter((a) => !a.status)).toEqual([
      expect.objectContaining({ error_code: 'rate_limited', message: 'Too Many Attempts.' }),
      expect.objectContaining({ error_code: 'rate_limited', message: 'Too Many Attempts.' }),
    ]);
    // The bucket refills; another connection has its own.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(socket.ask('typing', { is_typing: false })).resolves.toMatchObject({
      status: true,
    });
    const inbox = await connect(direct, '/agent', org.token);
    sockets.push(inbox);
    await expect(inbox.ask('sync', {})).resolves.toMatchObject({ status: true });
  });

  it('limits trusted logins per organization once the secret is right (TRUSTED_LOGIN_LIMIT_PER_MINUTE)', async () => {
    const owner = await organization('Trusted Inc.');
    const secret = (
      await request(app.url)
        .post('/api/agent/visitor-trusted-login/secret')
        .set(bearer(owner.token))
        .expect(201)
    ).body.plain_text_secret as string;
    const session = await init(owner.site);
    const trusted = (presented: string) =>
      request(app.url)
        .post('/api/visitor-account-login/trusted')
        .set('X-Service-Visitor-Login-Secret', presented)
        .send({
          widget_key: owner.site.widget_key,
          visitor_uid: session.visitor_uid,
          email: 'ada@example.test',
        });
    // Wrong secrets do not use the budget up (the widget key is public).
    for (let i = 0; i < 3; i += 1) await trusted(`vls_${'x'.repeat(40)}`).expect(401);
    // Still switched off: refused, but counted.
    await trusted(secret).expect(403);
    await trusted(secret).expect(403);
    expectTooMany(await trusted(secret));
  });

  it('caps webhook endpoints per organization with a 409 (WEBHOOK_ENDPOINTS_MAX)', async () => {
    const owner = await organization('Hooks Inc.');
    const add = (n: number) =>
      request(app.url)
        .post('/api/agent/webhooks')
        .set(bearer(owner.token))
        .send({ url: `http://127.0.0.1:9/hook-${n}`, events: ['ticket.created'] });
    await add(1).expect(201);
    await add(2).expect(201);
    const refused = await add(3).expect(409);
    expect(refused.body).toMatchObject({
      status: false,
      error_code: 'conflict',
      message:
        'This organization already has the maximum of 2 webhook endpoints; delete one first.',
    });
  });

  it('caps upcoming bookings per visitor with a 409 (BOOKINGS_PER_VISITOR_MAX)', async () => {
    const owner = await organization('Bookings Inc.');
    const allDay = [{ start: '00:00', end: '24:00' }];
    await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set(bearer(owner.token))
      .send({
        working_hours: Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
            (day) => [day, allDay],
          ),
        ),
      })
      .expect(200);
    const date = DateTime.utc().startOf('day').plus({ days: 2 }).toISODate() ?? '';
    const slots = (
      await widget('/api/widget/appointments/availability')
        .send({ widget_key: owner.site.widget_key, date })
        .expect(200)
    ).body.slots as { starts_at: string; available: boolean }[];
    const [first, second] = slots.filter((slot) => slot.available);
    const session = await init(owner.site);
    const book = (startsAt: string, uid = session.visitor_uid) =>
      widget('/api/widget/appointments/book').send({
        widget_key: owner.site.widget_key,
        visitor_uid: uid,
        scheduled_at: startsAt,
        visitor_name: 'Vera Visitor',
      });
    await book(first.starts_at).expect(201);
    const refused = await book(second.starts_at).expect(409);
    expect(refused.body).toMatchObject({
      error_code: 'conflict',
      message: 'This visitor already has 1 upcoming appointments, the most allowed.',
    });
    // Another visitor books the same slot.
    const other = await init(owner.site);
    await book(second.starts_at, other.visitor_uid).expect(201);
  });

  describe('login-code mails', () => {
    let owner: OwnerDatabase;
    let smtp: SmtpCapture;

    beforeAll(async () => {
      [owner, smtp] = await Promise.all([createOwnerDatabase(), startSmtp()]);
    });

    afterAll(async () => {
      await owner?.drop();
      await smtp?.close();
    });

    it('are limited per recipient and site (OTP_MAIL_LIMIT_PER_HOUR), whoever asks', async () => {
      const shop = await organization('Shop Inc.');
      await request(app.url)
        .patch(`/api/agent/sites/${shop.site.id}`)
        .set(bearer(shop.token))
        .send({ widget_settings: { visitor_account_login: { enabled: true } } })
        .expect(200);
      await request(app.url)
        .put(`/api/agent/sites/${shop.site.id}/data-lookup`)
        .set(bearer(shop.token))
        .send(shopSettings(owner.readerUrl, { require_otp: true }))
        .expect(200);
      const ask = async (identifier: string) => {
        const session = await init(shop.site);
        return widget('/api/widget/account-login').send({
          widget_key: shop.site.widget_key,
          visitor_uid: session.visitor_uid,
          identifier,
        });
      };
      // Three visitors, one recipient: each visitor is far from its own limit of 5.
      expect((await ask('nobody@example.test')).status).toBe(200);
      expect((await ask('NOBODY@example.test')).status).toBe(200);
      const retryAfter = expectTooMany(await ask('nobody@example.test'));
      expect(retryAfter).toBeGreaterThan(3000);
      expect((await ask('somebody-else@example.test')).status).toBe(200);
    });
  });
});
