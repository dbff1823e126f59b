import request from 'supertest';
import type { Registered } from '../factories/identity';
import { eventually } from './app-process';
import { tableOf } from './owner-database';

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
    /** A visitor logged in as `identifier` (settings without a code). */
    async visitorOf(identifier: string, site: Registered['site']): Promise<Session> {
      const session = await init(site);
      const res = await request(appUrl)
        .post('/api/widget/account-login')
        .set(bearer(session))
        .send({ identifier })
        .expect(200);
      expect(res.body.success).toBe(true);
      return session;
    },
    search: (session: Session, filters?: Record<string, string>) =>
      request(appUrl)
        .post('/api/widget/filter-records/search')
        .set(bearer(session))
        .send({ filters }),
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
