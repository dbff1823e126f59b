import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import {
  bearer,
  dataLookupClient,
  expectGoneDatabaseAnswered,
  expectSlowDatabaseAnswered,
  INJECTIONS,
  type Message,
  type Session,
  txns,
} from '../utils/data-lookup-client';
import { pool } from '../utils/database';
import {
  createOwnerDatabase,
  type OwnerDatabase,
  shopSettings,
  tableOf,
} from '../utils/owner-database';
import { connect, type TestSocket } from '../utils/sockets';

/**
 * What a logged-in visitor reads of the owner's records: the record search (only ever the
 * account's rows, whatever the filters hold), keyword bot replies with pages and row actions, and
 * an owner database that is away or slow answering 503 within the timeout, never a 500.
 */
describe('data lookup', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let direct: string;
  let owner: OwnerDatabase;
  let org: Registered;
  const sockets: TestSocket[] = [];
  let client: ReturnType<typeof dataLookupClient>;

  const setUp = (who: Registered, settings: object) => client.setUp(who, settings);
  const init = (site = org.site) => client.init(site);
  const visitorOf = (email: string, site = org.site) => client.visitorOf(email, site);
  const search = (session: Session, filters?: Record<string, string>) =>
    client.search(session, filters);
  const say = (session: Session, body: string) => client.say(session, body);
  const botReplyAfter = (session: Session, message: Message) =>
    client.botReplyAfter(session, message);

  beforeAll(async () => {
    owner = await createOwnerDatabase();
    ({ app, databaseUrl } = suite = await startTestApp());
    client = dataLookupClient(app.url);
    direct = `http://127.0.0.1:${app.port}`;
    org = await registerOrganization(app.url, 'Shop');
    await setUp(org, shopSettings(owner.readerUrl));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await suite?.stop();
    await owner?.drop();
  });

  describe('record search', () => {
    it('asks a visitor who is not logged in to log in', async () => {
      const session = await init(org.site);
      const res = await search(session, { txn: 'TXN-A1' }).expect(200);
      expect(res.body).toMatchObject({
        success: false,
        body: 'Please log in to see your payments.',
      });
    });

    it("shows only the account's rows, newest first, as table markup", async () => {
      const ada = await visitorOf('ada@example.test');
      const all = await search(ada).expect(200);
      expect(all.body.success).toBe(true);
      const table = tableOf(all.body.body);
      expect(table.columns).toEqual(['txn_id', 'utr', 'amount', 'status', 'paid_at']);
      expect(txns(all.body.body)).toEqual(['TXN-A3', 'TXN-A2', 'TXN-A1']);
      expect(table.rows[2].slice(0, 4)).toEqual(['TXN-A1', 'UTR-A1', '10.50', 'success']);

      expect(txns((await search(ada, { txn: 'TXN-A2' }).expect(200)).body.body)).toEqual([
        'TXN-A2',
      ]);
      expect(txns((await search(ada, { utr: 'UTR-A1' }).expect(200)).body.body)).toEqual([
        'TXN-A1',
      ]);
      expect(txns((await search(ada, { status: 'SUCCESS' }).expect(200)).body.body)).toEqual([
        'TXN-A3',
        'TXN-A1',
      ]);
      expect(
        txns((await search(ada, { mobile: '+44 20 7946 0001' }).expect(200)).body.body),
      ).toHaveLength(3);
      // Days in the site's time zone (UTC), both ends included.
      const range = await search(ada, { date_from: '2026-01-10', date_to: '2026-02-05' }).expect(
        200,
      );
      expect(txns(range.body.body)).toEqual(['TXN-A2', 'TXN-A1']);
    });

    it("never shows another account's rows: not by its transaction id, nor by injection", async () => {
      const ada = await visitorOf('ada@example.test');
      const bobs = await search(ada, { txn: 'TXN-B1' }).expect(200);
      expect(bobs.body).toEqual(
        expect.objectContaining({ success: true, body: 'No matching payments.' }),
      );
      await client.expectInjectionsFindNothing(ada);
      const [{ n }] = (await owner.query(`SELECT count(*)::int AS n FROM payments`)) as {
        n: number;
      }[];
      expect(n).toBe(5);
      const bob = await visitorOf('bob@example.test');
      expect(txns((await search(bob).expect(200)).body.body)).toEqual(['TXN-B2', 'TXN-B1']);
    });

    it('refuses presets the site does not map (422 naming them)', async () => {
      const other = await registerOrganization(app.url, 'Narrow');
      const settings = shopSettings(owner.readerUrl);
      await setUp(other, {
        ...settings,
        filter_record: { ...settings.filter_record, filters: { txn: 'txn_id' } },
      });
      const session = await visitorOf('ada@example.test', other.site);
      const res = await search(session, { utr: 'UTR-A1', date_from: '2026-01-01' }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['filters.date_from', 'filters.utr']);
      await search(session, { txn: 'TXN-A1' }).expect(200);
    });
  });

  describe('keyword replies', () => {
    it('answer a logged-in visitor with the first page as a bot message, pushed on the socket', async () => {
      const ada = await visitorOf('ada@example.test');
      const socket = await connect(direct, '/widget', ada.session_token);
      sockets.push(socket);
      const message = await say(ada, 'Where is my ORDER?');
      const reply = await botReplyAfter(ada, message);
      const pushed = await socket.next<Message>('message.created', (m) => m.sender_type === 'bot');
      expect(pushed.id).toBe(reply.id);
      expect(reply.body.startsWith('My orders\n')).toBe(true);
      const table = tableOf(reply.body);
      expect(table).toMatchObject({
        columns: ['id', 'total', 'status', 'created_at'],
        rule_id: 'orders',
        page: 1,
        has_more: true,
        row_key: 'id',
        actions: [{ id: 'track', label: 'Track' }],
      });
      expect(table.rows.map((row) => row[0])).toEqual(['7', '6', '5']);

      // Later pages, until there is no more.
      const page = (number: number) =>
        request(app.url)
          .post('/api/widget/data-lookup/paginate')
          .set(bearer(ada))
          .send({
            conversation_id: reply.conversation_id,
            rule_id: 'orders',
            page: number,
            trigger_message: message.id,
          })
          .expect(200);
      const second = await page(2);
      expect(second.body).toMatchObject({ page: 2, has_more: true });
      expect(tableOf(second.body.reply_body).rows.map((row) => row[0])).toEqual(['4', '3', '2']);
      const third = await page(3);
      expect(third.body).toMatchObject({ page: 3, has_more: false });
      expect(tableOf(third.body.reply_body).rows.map((row) => row[0])).toEqual(['1']);
    });

    it('answer once, even when the event is handled again', async () => {
      const ada = await visitorOf('ada@example.test');
      const message = await say(ada, 'my orders, once');
      await botReplyAfter(ada, message);
      const db = pool(databaseUrl);
      try {
        const { rows } = await db.query<{ id: string }>(
          `SELECT id FROM outbox_events
            WHERE event_type = 'message.received' AND (payload->'message'->>'id')::bigint = $1`,
          [message.id],
        );
        const outboxId = rows[0].id;
        // Handled once; then as if its processed mark were lost (an instance killed between
        // handling and marking): the event is handled again.
        await eventually(async () => {
          const { rows: done } = await db.query(
            'SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL',
            [outboxId],
          );
          return done.length === 1;
        });
        await db.query('UPDATE outbox_events SET processed_at = NULL WHERE id = $1', [outboxId]);
        await eventually(async () => {
          const { rows: again } = await db.query(
            'SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL AND attempts = 2',
            [outboxId],
          );
          return again.length === 1;
        });
      } finally {
        await db.end();
      }
      const res = await request(app.url)
        .get(`/api/widget/messages?after_id=${message.id}`)
        .set(bearer(ada))
        .expect(200);
      expect((res.body.data as Message[]).filter((m) => m.sender_type === 'bot')).toHaveLength(1);
    });

    it('stay silent for visitors who are not logged in and for other words', async () => {
      const ada = await visitorOf('ada@example.test');
      const quiet = await say(ada, 'bordering on nothing');
      const session = await init(org.site);
      const anonymous = await say(session, 'my orders please');
      // A message after both shows the worker has passed them.
      const trigger = await say(ada, 'orders');
      await botReplyAfter(ada, trigger);
      for (const [who, after] of [
        [ada, quiet],
        [session, anonymous],
      ] as const) {
        const res = await request(app.url)
          .get(`/api/widget/messages?after_id=${after.id}`)
          .set(bearer(who))
          .expect(200);
        const bots = (res.body.data as Message[]).filter(
          (m) => m.sender_type === 'bot' && m.id < trigger.id,
        );
        expect(bots).toEqual([]);
      }
    });
  });

  describe('row actions', () => {
    const act = (
      session: Session,
      conversationId: number,
      row: Record<string, unknown>,
      extra = {},
    ) =>
      request(app.url)
        .post('/api/widget/data-lookup/row-action')
        .set(bearer(session))
        .send({
          conversation_id: conversationId,
          rule_id: 'orders',
          action_id: 'track',
          row,
          ...extra,
        });

    it("render the reply from the account's own row, HTML-escaped", async () => {
      const ada = await visitorOf('ada@example.test');
      const message = await say(ada, 'orders');
      const conversation = message.conversation_id;
      const res = await act(ada, conversation, { id: '6', status: 'forged' }).expect(200);
      expect(res.body.reply_body).toBe('Order 6 is shipped.');
      await act(ada, conversation, { id: 6 }).expect(200);
      // Bob's order, or anything that is not one of Ada's rows, is not found.
      await act(ada, conversation, { id: '100' }).expect(404);
      for (const attempt of INJECTIONS) await act(ada, conversation, { id: attempt }).expect(404);
      await act(ada, conversation, {}).expect(422);
      await act(ada, conversation, { id: '6' }, { action_id: 'cancel' }).expect(422);
      await act(ada, conversation, { id: '6' }, { rule_id: 'nope' }).expect(422);

      const bob = await visitorOf('bob@example.test');
      const bobMessage = await say(bob, 'hello');
      const escaped = await act(bob, bobMessage.conversation_id, { id: '100' }).expect(200);
      expect(escaped.body.reply_body).toBe('Order 100 is &lt;img src=x onerror=alert(1)&gt;.');
      // Another visitor's conversation is not found; a closed one is a conflict.
      await act(bob, conversation, { id: '100' }).expect(404);
      await request(app.url).post('/api/widget/end-chat').set(bearer(bob)).send({}).expect(200);
      await act(bob, bobMessage.conversation_id, { id: '100' }).expect(409);
    });

    it('and pages accept the open conversation init returned, before the first message', async () => {
      const ada = await visitorOf('ada@example.test');
      const res = await act(ada, ada.conversation_id, { id: '6' }).expect(200);
      expect(res.body.reply_body).toBe('Order 6 is shipped.');
      const page = await request(app.url)
        .post('/api/widget/data-lookup/paginate')
        .set(bearer(ada))
        .send({ conversation_id: ada.conversation_id, rule_id: 'orders', page: 2 })
        .expect(200);
      expect(page.body).toMatchObject({ page: 2, has_more: true });
      // Still only the visitor's own: another visitor's unstarted conversation is not found.
      const bob = await visitorOf('bob@example.test');
      await act(bob, ada.conversation_id, { id: '100' }).expect(404);
    });
  });

  describe('an owner database that fails', () => {
    it('answers 503 within the timeout when it is slow', () =>
      expectSlowDatabaseAnswered(app.url, shopSettings(owner.readerUrl)));

    it('answers 503 at once when it is gone, and within the timeout when it does not answer', () =>
      expectGoneDatabaseAnswered(app.url, owner.readerUrl, (url) => shopSettings(url)));
  });
});
