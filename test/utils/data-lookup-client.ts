import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { eventually } from './app-process';
import { ADA, type shopSettings, startRelay, tableOf } from './owner-database';
import { type CapturedMail, codeOf, type SmtpCapture } from './smtp';

export interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
}

export interface Message {
  id: number;
  body: string;
  sender_type: string;
  conversation_id: number;
}

/** What visitors try in every filter and row key: none of it may find anything. */
export const INJECTIONS = [
  "' OR '1'='1",
  "TXN-B1' OR customer_id = 2 --",
  '1; DROP TABLE payments; --',
  "') UNION SELECT txn_id, utr, amount::text, status, paid_at::text FROM payments --",
  '"customer_id"',
  '$1',
  '?',
  "1' OR 1=1 #",
  '` OR 1=1 -- ',
  "\\' OR 1=1 -- ",
];

export const agentOf = (who: Registered) => ({ Authorization: `Bearer ${who.token}` });
export const bearer = (session: Session) => ({
  Authorization: `Bearer ${session.session_token}`,
});
/** The first column (the transaction id) of each row of a search answer's table. */
export const txns = (body: string) => tableOf(body).rows.map((row) => row[0]);

/**
 * The owner's and the visitor's side of data lookup over HTTP, for the suites of each owner
 * database driver: settings, widget sessions logged in to an account, searches and messages.
 */
export function dataLookupClient(appUrl: string) {
  const init = async (site: Registered['site']): Promise<Session> =>
    (
      await request(appUrl)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key })
        .expect(200)
    ).body as Session;
  const login = (session: Session, identifier: string) =>
    request(appUrl).post('/api/widget/account-login').set(bearer(session)).send({ identifier });
  const verifyOtp = (session: Session, otp: string) =>
    request(appUrl).post('/api/widget/account-login/verify-otp').set(bearer(session)).send({ otp });
  return {
    /** Account login switched on and these data-lookup settings saved (200). */
    async setUp(who: Registered, settings: object) {
      await request(appUrl)
        .patch(`/api/agent/sites/${who.site.id}`)
        .set(agentOf(who))
        .send({ widget_settings: { visitor_account_login: { enabled: true } } })
        .expect(200);
      await request(appUrl)
        .put(`/api/agent/sites/${who.site.id}/data-lookup`)
        .set(agentOf(who))
        .send(settings)
        .expect(200);
    },
    init,
    login,
    verifyOtp,
    /** A visitor logged in as `identifier` (settings without a code). */
    async visitorOf(identifier: string, site: Registered['site']): Promise<Session> {
      const session = await init(site);
      const res = await login(session, identifier).expect(200);
      expect(res.body.success).toBe(true);
      return session;
    },
    search: (session: Session, filters?: Record<string, string>) =>
      request(appUrl)
        .post('/api/widget/filter-records/search')
        .set(bearer(session))
        .send({ filters }),
    /**
     * Every injection string in every text filter finds nothing, and in a date filter is a 422:
     * never another account's rows, never a 500.
     */
    async expectInjectionsFindNothing(session: Session) {
      for (const attempt of INJECTIONS) {
        for (const key of ['txn', 'utr', 'status', 'mobile']) {
          const res = await this.search(session, { [key]: attempt }).expect(200);
          expect(res.body.body).toBe('No matching payments.');
        }
        for (const key of ['date_from', 'date_to'])
          await this.search(session, { [key]: attempt }).expect(422);
      }
    },
    async say(session: Session, body: string): Promise<Message> {
      const res = await request(appUrl)
        .post('/api/widget/messages')
        .set(bearer(session))
        .send({ body })
        .expect(201);
      return res.body.data as Message;
    },
    botReplyAfter: (session: Session, message: Message) =>
      eventually(async () => {
        const res = await request(appUrl)
          .get(`/api/widget/messages?after_id=${message.id}`)
          .set(bearer(session))
          .expect(200);
        return (res.body.data as Message[]).find((m) => m.sender_type === 'bot');
      }),
  };
}

type Client = ReturnType<typeof dataLookupClient>;

/**
 * A visitor logging in with a mailed code on a site with `require_otp`: the login answers
 * `otp_required` and does not log in yet, the 6-digit code is mailed to the account row's
 * `email_column` (whatever identifier was typed), a wrong code is refused, and the mailed one logs
 * in. `account` is the row the identifier names (a name that needs no HTML escaping).
 */
export async function expectMailedCodeLogin(
  appUrl: string,
  smtp: SmtpCapture,
  site: Registered['site'],
  identifier: string,
  account: { name: string; email: string } = ADA,
): Promise<{ session: Session; code: string; mail: CapturedMail }> {
  const client = dataLookupClient(appUrl);
  const session = await client.init(site);
  const res = await client.login(session, identifier).expect(200);
  expect(res.body).toMatchObject({
    success: true,
    otp_required: true,
    follow_up_replies: [],
    visitor_profile: { account_login: { logged_in: false } },
  });
  const mail = await smtp.next(account.email);
  const code = codeOf(mail);
  expect(code).toMatch(/^\d{6}$/);

  const wrong = await client.verifyOtp(session, code === '000000' ? '111111' : '000000');
  expect(wrong.status).toBe(200);
  expect(wrong.body).toMatchObject({
    success: false,
    reply_body: expect.stringContaining('4 tries left'),
    visitor_profile: { account_login: { logged_in: false } },
  });
  const ok = await client.verifyOtp(session, code).expect(200);
  expect(ok.body).toMatchObject({
    success: true,
    reply_body: `You are logged in as ${account.name}.`,
    visitor_profile: { account_login: { logged_in: true, identifier } },
  });
  expect(ok.body.follow_up_replies).toHaveLength(2);
  return { session, code, mail };
}
type Settings = ReturnType<typeof shopSettings>;

/**
 * A site whose keyword rule reads `slow_orders` (5 s a row): a page answers 503 within the
 * timeout, the keyword reply says so, and the next read still works.
 */
export async function expectSlowDatabaseAnswered(appUrl: string, settings: Settings) {
  const client = dataLookupClient(appUrl);
  const slow = await registerOrganization(appUrl, 'Slow');
  await client.setUp(slow, {
    ...settings,
    rules: [{ ...settings.rules[0], table: 'slow_orders' }],
  });
  const ada = await client.visitorOf(ADA.email, slow.site);
  const message = await client.say(ada, 'orders');
  const started = Date.now();
  const res = await request(appUrl)
    .post('/api/widget/data-lookup/paginate')
    .set(bearer(ada))
    .send({ conversation_id: message.conversation_id, rule_id: 'orders', page: 2 })
    .expect(503);
  expect(Date.now() - started).toBeLessThan(4500);
  expect(res.body).toMatchObject({ status: false, error_code: 'service_unavailable' });
  expect(res.body.message).toContain('did not answer in time');
  // The keyword reply tells the visitor instead of failing silently.
  const reply = await client.botReplyAfter(ada, message);
  expect(reply.body).toContain('did not answer in time');
  // The connection whose statement was stopped (or dropped) does not hold the next read.
  await client.search(ada).expect(200);
}

/**
 * A site reading the owner database through a relay: when the relay stops answering, reads and
 * logins answer 503 within the timeout; when its port closes, at once, and a settings test is a
 * 422. The service itself stays ready.
 */
export async function expectGoneDatabaseAnswered(
  appUrl: string,
  readerUrl: string,
  settingsOf: (url: string) => Settings,
) {
  const client: Client = dataLookupClient(appUrl);
  const relay = await startRelay(readerUrl);
  const away = await registerOrganization(appUrl, 'Away');
  await client.setUp(away, settingsOf(relay.url));
  const ada = await client.visitorOf(ADA.email, away.site);
  await client.search(ada).expect(200);

  relay.blackhole();
  let started = Date.now();
  let res = await client.search(ada).expect(503);
  expect(Date.now() - started).toBeLessThan(4500);
  expect(res.body.error_code).toBe('service_unavailable');
  const session = await client.init(away.site);
  started = Date.now();
  await request(appUrl)
    .post('/api/widget/account-login')
    .set(bearer(session))
    .send({ identifier: ADA.email })
    .expect(503);
  expect(Date.now() - started).toBeLessThan(4500);

  await relay.refuse();
  started = Date.now();
  res = await client.search(ada).expect(503);
  expect(Date.now() - started).toBeLessThan(1500);
  expect(res.body.message).toContain('cannot be reached');
  await request(appUrl)
    .post(`/api/agent/sites/${away.site.id}/data-lookup/test`)
    .set(agentOf(away))
    .expect(422);
  await request(appUrl).get('/health/ready').expect(200);
}
