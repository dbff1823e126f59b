import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import {
  agentOf,
  bearer,
  dataLookupClient,
  expectGoneDatabaseAnswered,
  expectMailedCodeLogin,
  expectSlowDatabaseAnswered,
  INJECTIONS,
  type Session,
  txns,
} from '../utils/data-lookup-client';
import { pool } from '../utils/database';
import {
  createMysqlOwnerDatabase,
  type MysqlOwnerDatabase,
  mysqlAvailable,
} from '../utils/mariadb';
import { ADA, BOB, shopSettings, tableOf, TWIN } from '../utils/owner-database';
import { type SmtpCapture, startSmtp } from '../utils/smtp';

const describeWithMysql = mysqlAvailable() ? describe : describe.skip;

/** The shop's settings for its MySQL copy. */
const mysqlSettings = (url: string, overrides: Record<string, unknown> = {}) => {
  const settings = shopSettings(url, overrides);
  return { ...settings, connection: { ...settings.connection, driver: 'mysql' } };
};

/** The one named zone the test server's time zone tables hold (a fresh MariaDB has none). */
const NAMED_ZONE = 'Europe/Berlin';
/** A zone the server does not know: the service sets its UTC offset instead. */
const UNKNOWN_ZONE = 'Asia/Kolkata';

/**
 * Data lookup on a site owner's MySQL/MariaDB (a private mariadbd with the rows of the PostgreSQL
 * shop): settings checked against its catalog, login by email and mobile (with a code mailed to
 * a real local SMTP server too), the record search in named and offset time zones, keyword
 * replies, pages and row actions, where a value must never match more than PostgreSQL would
 * (MySQL's `'abc' = 0`, its case- and space-blind collations), and a database that is gone or
 * slow answering 503 within the timeout.
 */
describeWithMysql('data lookup on MySQL/MariaDB', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let owner: MysqlOwnerDatabase;
  let org: Registered;
  let client: ReturnType<typeof dataLookupClient>;
  let smtp: SmtpCapture;

  const putSettings = (body: object, who = org) =>
    request(app.url)
      .put(`/api/agent/sites/${who.site.id}/data-lookup`)
      .set(agentOf(who))
      .send(body);
  const login = (session: Session, identifier: string) => client.login(session, identifier);
  const readSettings = () =>
    request(app.url)
      .get(`/api/agent/sites/${org.site.id}/data-lookup`)
      .set(agentOf(org))
      .expect(200);
  /** Sent back masked, the saved URL stays and still connects: the test's answer. */
  const keepsMaskedUrl = async (masked: string) => {
    await putSettings(mysqlSettings(masked)).expect(200);
    const tested = await request(app.url)
      .post(`/api/agent/sites/${org.site.id}/data-lookup/test`)
      .set(agentOf(org))
      .expect(200);
    expect(tested.body.data).toMatchObject({ ok: true });
    return tested.body.data as { server_version: string };
  };
  const visitorOf = (identifier: string, site = org.site) => client.visitorOf(identifier, site);
  const search = (session: Session, filters?: Record<string, string>) =>
    client.search(session, filters);

  beforeAll(async () => {
    smtp = await startSmtp();
    owner = await createMysqlOwnerDatabase({ timeZones: [NAMED_ZONE] });
    ({ app, databaseUrl } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'shop@example.test',
    }));
    client = dataLookupClient(app.url);
    org = await registerOrganization(app.url, 'Shop');
    await client.setUp(org, mysqlSettings(owner.readerUrl));
  });

  afterAll(async () => {
    await suite?.stop();
    await owner?.drop();
    await smtp?.close();
  });

  describe('settings', () => {
    it('are saved with driver mysql, shown masked, and tested against the server', async () => {
      const password = new URL(owner.readerUrl).password;
      const read = await readSettings();
      expect(read.body.data.connection.driver).toBe('mysql');
      expect(read.body.data.connection.url).toMatch(/^mysql:\/\/reader_\w+:\*{4}@127\.0\.0\.1:/);
      expect(JSON.stringify(read.body)).not.toContain(password);
      const db = pool(databaseUrl);
      try {
        const { rows } = await db.query<{ driver: string; url_sealed: string }>(
          `SELECT driver, url_sealed FROM data_lookup_settings WHERE site_id = $1`,
          [org.site.id],
        );
        expect(rows[0].driver).toBe('mysql');
        expect(rows[0].url_sealed).not.toContain(password);
      } finally {
        await db.end();
      }

      const tested = await keepsMaskedUrl(read.body.data.connection.url);
      expect(tested.server_version).toMatch(/MariaDB|^\d+\.\d+/);
    });

    it('name every column or table the catalog lacks, and a URL of another driver (422)', async () => {
      const base = mysqlSettings(owner.readerUrl);
      const missing = await putSettings({
        ...base,
        filter_record: {
          ...base.filter_record,
          columns: ['txn_id', 'utr', 'fee'],
          filters: { txn: 'txn_id', date: 'status' },
        },
        rules: [{ ...base.rules[0], order_by: 'placed_at' }],
      }).expect(422);
      expect(Object.keys(missing.body.errors).sort()).toEqual([
        'filter_record.columns.2',
        'filter_record.filters.date',
        'rules.0.order_by',
      ]);
      expect(missing.body.errors['filter_record.columns.2'][0]).toContain('fee');

      // A table the login may not read does not exist for it; database.table is a database.
      const hidden = await putSettings({
        ...base,
        account: { ...base.account, table: 'staff', lookup_columns: ['email'], name_column: null },
      }).expect(422);
      expect(Object.keys(hidden.body.errors)).toEqual(['account.table']);
      const database = new URL(owner.readerUrl).pathname.slice(1);
      await putSettings({
        ...base,
        account: { ...base.account, table: `${database}.customers` },
      }).expect(200);
      const elsewhere = await putSettings({
        ...base,
        account: { ...base.account, table: 'mysql.user' },
      }).expect(422);
      expect(Object.keys(elsewhere.body.errors)).toEqual(['account.table']);

      for (const [driver, url] of [
        ['mysql', 'postgres://reader:pw@127.0.0.1:5432/shop'],
        ['postgres', owner.readerUrl],
      ]) {
        const wrong = await putSettings({ ...base, connection: { driver, url } }).expect(422);
        expect(Object.keys(wrong.body.errors)).toEqual(['connection.url']);
      }
      const closed = await putSettings(mysqlSettings('mysql://reader:pw@127.0.0.1:1/shop')).expect(
        422,
      );
      expect(Object.keys(closed.body.errors)).toEqual(['connection.url']);
      const wrongPassword = new URL(owner.readerUrl);
      wrongPassword.password = 'wrong';
      await putSettings(mysqlSettings(wrongPassword.toString())).expect(422);

      await putSettings(base).expect(200);
    });

    it('take a mariadb:// URL as well, masked and connecting like a mysql:// one', async () => {
      const mariadbUrl = owner.readerUrl.replace(/^mysql:/, 'mariadb:');
      const password = new URL(mariadbUrl).password;
      try {
        // Saving checks the catalog, so a 200 means the service connected with it.
        const saved = await putSettings(mysqlSettings(mariadbUrl)).expect(200);
        expect(saved.body.data.connection.url).toMatch(
          /^mariadb:\/\/reader_\w+:\*{4}@127\.0\.0\.1:\d+\/scs_shop_\w+$/,
        );
        const read = await readSettings();
        expect(read.body.data.connection).toEqual(saved.body.data.connection);
        expect(JSON.stringify(read.body)).not.toContain(password);
        await keepsMaskedUrl(read.body.data.connection.url);
        await visitorOf(ADA.email);

        // Still one driver's scheme only: no mariadb:// for postgres, no postgres:// for mysql.
        for (const [driver, url] of [
          ['postgres', mariadbUrl],
          ['mysql', 'postgres://reader:pw@127.0.0.1:5432/shop'],
        ]) {
          const wrong = await putSettings({
            ...mysqlSettings(mariadbUrl),
            connection: { driver, url },
          }).expect(422);
          expect(Object.keys(wrong.body.errors)).toEqual(['connection.url']);
        }
      } finally {
        await putSettings(mysqlSettings(owner.readerUrl)).expect(200);
      }
    });
  });

  describe('account login', () => {
    it('finds accounts by email (any case) and mobile (any spacing), never by injection', async () => {
      const session = await client.init(org.site);
      const byEmail = await login(session, 'ADA@Example.TEST').expect(200);
      expect(byEmail.body).toMatchObject({
        success: true,
        reply_body: `You are logged in as ${ADA.name}.`,
        visitor_profile: { email: ADA.email },
      });
      const other = await client.init(org.site);
      const byMobile = await login(other, '+44 (20) 7946-0002').expect(200);
      expect(byMobile.body).toMatchObject({
        success: true,
        reply_body: 'You are logged in as Bob &lt;b&gt;Builder&lt;/b&gt;.',
      });
      expect(BOB.id).toBe(2);

      const nobody = await client.init(org.site);
      for (const identifier of ['nobody@example.test', TWIN.mobile, '0', 'abc', ...INJECTIONS]) {
        const res = await login(nobody, identifier).expect(200);
        expect(res.body).toMatchObject({ success: false, otp_required: false });
      }
      expect(await owner.query(`SELECT count(*) AS n FROM customers`)).toEqual([{ n: 4 }]);
    });

    it("with require_otp, mails a code to the row's email that logs in to that account only", async () => {
      const guarded = await registerOrganization(app.url, 'Codes');
      // Its sign-up confirmation (issue 28) arrives first, so the count below is of login codes.
      await smtp.next(guarded.user.email, (mail) =>
        /^Subject: Confirm your address/m.test(mail.raw),
      );
      await client.setUp(guarded, mysqlSettings(owner.readerUrl, { require_otp: true }));
      // Typed as a mobile: the code goes to the email column of the row it names.
      const { session, mail } = await expectMailedCodeLogin(
        app.url,
        smtp,
        guarded.site,
        ADA.mobile,
      );
      expect(mail.to).toEqual([ADA.email]);
      expect(txns((await search(session).expect(200)).body.body)).toEqual([
        'TXN-A3',
        'TXN-A2',
        'TXN-A1',
      ]);
      const bobs = await search(session, { txn: 'TXN-B1' }).expect(200);
      expect(bobs.body.body).toBe('No matching payments.');

      // An identifier naming no row answers the same, mails nothing, and no code logs it in.
      const nobody = await client.init(guarded.site);
      const mailsBefore = smtp.mails.length;
      const unknown = await login(nobody, 'nobody@example.test').expect(200);
      expect(unknown.body).toMatchObject({ success: true, otp_required: true });
      const refused = await client.verifyOtp(nobody, '123456').expect(200);
      expect(refused.body).toMatchObject({
        success: false,
        visitor_profile: { account_login: { logged_in: false } },
      });
      await search(nobody).expect(200, /log in/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.mails.length).toBe(mailsBefore);
    });
  });

  describe('record search', () => {
    it("shows only the account's rows, as the database writes them, newest first", async () => {
      const ada = await visitorOf(ADA.email);
      const all = await search(ada).expect(200);
      const table = tableOf(all.body.body);
      expect(table.columns).toEqual(['txn_id', 'utr', 'amount', 'status', 'paid_at']);
      expect(table.rows).toEqual([
        ['TXN-A3', 'UTR-A3', '5.00', 'success', '2026-03-01 08:00:00'],
        ['TXN-A2', 'UTR-A2', '99.00', 'failed', '2026-02-05 23:30:00'],
        ['TXN-A1', 'UTR-A1', '10.50', 'success', '2026-01-10 10:00:00'],
      ]);
      const found = async (filters: Record<string, string>) => {
        const res = await search(ada, filters).expect(200);
        return res.body.body === 'No matching payments.' ? [] : txns(res.body.body);
      };
      expect(await found({ txn: 'TXN-A2' })).toEqual(['TXN-A2']);
      expect(await found({ utr: 'UTR-A1' })).toEqual(['TXN-A1']);
      expect(await found({ status: 'SUCCESS' })).toEqual(['TXN-A3', 'TXN-A1']);
      expect(await found({ mobile: ADA.mobile })).toHaveLength(3);
      // Days in the site's time zone (UTC), both ends included.
      expect(await found({ date_from: '2026-01-10', date_to: '2026-02-05' })).toEqual([
        'TXN-A2',
        'TXN-A1',
      ]);
      expect(await found({ date_from: '2026-02-06' })).toEqual(['TXN-A3']);
      expect(await found({ date_to: '2026-02-30' })).toEqual([]);
      // Exact, as on PostgreSQL: MySQL's collation would ignore case and trailing spaces.
      expect(await found({ txn: 'txn-a2' })).toEqual([]);
      expect(await found({ txn: 'TXN-A2 ' })).toEqual([]);
      expect(await found({ status: 'success ' })).toEqual([]);
    });

    it("never shows another account's rows: not by its transaction id, nor by injection", async () => {
      const ada = await visitorOf(ADA.email);
      const bobs = await search(ada, { txn: 'TXN-B1' }).expect(200);
      expect(bobs.body).toMatchObject({ success: true, body: 'No matching payments.' });
      await client.expectInjectionsFindNothing(ada);
      expect(await owner.query(`SELECT count(*) AS n FROM payments`)).toEqual([{ n: 5 }]);
      const bob = await visitorOf(BOB.email);
      expect(txns((await search(bob).expect(200)).body.body)).toEqual(['TXN-B2', 'TXN-B1']);
    });

    it('matches a number column only with its exact text (MySQL finds 0 for "abc")', async () => {
      const other = await registerOrganization(app.url, 'By id');
      const settings = mysqlSettings(owner.readerUrl);
      // The payment's id is a number column: letters must not match id 0, nor "2x" id 2.
      await client.setUp(other, {
        ...settings,
        filter_record: { ...settings.filter_record, filters: { txn: 'id' } },
      });
      await owner.query(
        `INSERT INTO payments (id, customer_id, txn_id, utr, amount, status, mobile, paid_at)
         VALUES (0, 1, 'TXN-A0', 'UTR-A0', 1.00, 'success', NULL, '2026-01-01 00:00:00')`,
      );
      try {
        const ada = await visitorOf(ADA.email, other.site);
        const found = async (txn: string) => {
          const res = await search(ada, { txn }).expect(200);
          return res.body.body === 'No matching payments.' ? [] : txns(res.body.body);
        };
        expect(await found('0')).toEqual(['TXN-A0']);
        expect(await found('2')).toEqual(['TXN-A2']);
        for (const value of ['abc', '2x', ' 2', '2 ', '2.0', '02', '0e0']) {
          expect(await found(value)).toEqual([]);
        }
      } finally {
        await owner.query(`DELETE FROM payments WHERE id = 0`);
      }
    });
  });

  describe('time zones', () => {
    /** Ada logged in on a new site in `timeZone` reading the shop. */
    const adaIn = async (timeZone: string) => {
      const site = await registerOrganization(app.url, `Shop in ${timeZone}`);
      await request(app.url)
        .patch(`/api/agent/sites/${site.site.id}`)
        .set(agentOf(site))
        .send({ timezone: timeZone })
        .expect(200);
      await client.setUp(site, mysqlSettings(owner.readerUrl));
      return visitorOf(ADA.email, site.site);
    };
    /** The rows (transaction id and paid_at as shown) of one of the site's days. */
    const onDay = async (ada: Session, day: string) => {
      const res = await search(ada, { date_from: day, date_to: day }).expect(200);
      if (res.body.body === 'No matching payments.') return [];
      return tableOf(res.body.body).rows.map((row) => [row[0], row[4]]);
    };
    /** Whether the server's time zone tables hold the zone. */
    const serverKnows = async (zone: string) => {
      const [row] = await owner.query(
        `SELECT CONVERT_TZ('2026-01-01 00:00:00', '+00:00', ?) AS converted`,
        [zone],
      );
      return row.converted !== null;
    };

    it('count days in a named zone the server knows, on either side of its DST change', async () => {
      expect(await serverKnows(NAMED_ZONE)).toBe(true);
      // 22:30 UTC is 23:30 in Berlin in winter (+01:00) but 00:30 the next day in summer
      // (+02:00): no single offset puts both rows on their Berlin day.
      await owner.query(
        `INSERT INTO payments (id, customer_id, txn_id, utr, amount, status, mobile, paid_at)
         VALUES (20, 1, 'TXN-WINTER', 'UTR-W', 1.00, 'success', NULL, '2026-01-15 22:30:00'),
                (21, 1, 'TXN-SUMMER', 'UTR-S', 1.00, 'success', NULL, '2026-07-15 22:30:00')`,
      );
      try {
        const ada = await adaIn(NAMED_ZONE);
        expect(await onDay(ada, '2026-01-15')).toEqual([['TXN-WINTER', '2026-01-15 23:30:00']]);
        expect(await onDay(ada, '2026-07-15')).toEqual([]);
        expect(await onDay(ada, '2026-07-16')).toEqual([['TXN-SUMMER', '2026-07-16 00:30:00']]);
        // 23:30 UTC on 5 February is already the 6th in Berlin.
        expect(await onDay(ada, '2026-02-05')).toEqual([]);
        expect(await onDay(ada, '2026-02-06')).toEqual([['TXN-A2', '2026-02-06 00:30:00']]);
      } finally {
        await owner.query(`DELETE FROM payments WHERE id IN (20, 21)`);
      }
    });

    it("count days at the zone's current UTC offset when the server does not know it", async () => {
      // The same ER_UNKNOWN_TIME_ZONE as on a server without time zone tables.
      expect(await serverKnows(UNKNOWN_ZONE)).toBe(false);
      const ada = await adaIn(UNKNOWN_ZONE);
      // Asia/Kolkata is +05:30 all year: 23:30 UTC on 5 February is 05:00 on the 6th there.
      expect(await onDay(ada, '2026-02-05')).toEqual([]);
      expect(await onDay(ada, '2026-02-06')).toEqual([['TXN-A2', '2026-02-06 05:00:00']]);
      expect(await onDay(ada, '2026-01-10')).toEqual([['TXN-A1', '2026-01-10 15:30:00']]);
    });
  });

  describe('keyword replies, pages and row actions', () => {
    it('answer with pages of the account rows and render actions from its own row', async () => {
      const ada = await visitorOf(ADA.email);
      const message = await client.say(ada, 'Where is my ORDER?');
      const reply = await client.botReplyAfter(ada, message);
      const table = tableOf(reply.body);
      expect(table).toMatchObject({
        columns: ['id', 'total', 'status', 'created_at'],
        rule_id: 'orders',
        page: 1,
        has_more: true,
      });
      expect(table.rows[0]).toEqual(['7', '70.00', 'packed', '2026-01-08 00:00:00']);
      expect(table.rows.map((row) => row[0])).toEqual(['7', '6', '5']);
      const page = async (number: number) =>
        (
          await request(app.url)
            .post('/api/widget/data-lookup/paginate')
            .set(bearer(ada))
            .send({ conversation_id: reply.conversation_id, rule_id: 'orders', page: number })
            .expect(200)
        ).body as { reply_body: string; has_more: boolean };
      const second = await page(2);
      expect(tableOf(second.reply_body).rows.map((row) => row[0])).toEqual(['4', '3', '2']);
      const third = await page(3);
      expect(third.has_more).toBe(false);
      expect(tableOf(third.reply_body).rows.map((row) => row[0])).toEqual(['1']);

      const act = (row: Record<string, unknown>) =>
        request(app.url).post('/api/widget/data-lookup/row-action').set(bearer(ada)).send({
          conversation_id: reply.conversation_id,
          rule_id: 'orders',
          action_id: 'track',
          row,
        });
      expect((await act({ id: '6', status: 'forged' }).expect(200)).body.reply_body).toBe(
        'Order 6 is shipped.',
      );
      await act({ id: 6 }).expect(200);
      // Bob's order, and what MySQL alone would take for 6 or for 0, are not Ada's rows.
      await act({ id: '100' }).expect(404);
      await owner.query(
        `INSERT INTO orders (id, customer_id, total, status, created_at)
         VALUES (0, 1, 0, 'packed', '2026-01-01')`,
      );
      try {
        await act({ id: '0' }).expect(200);
        for (const id of ['6abc', ' 6', '6 ', '6.0', 'abc', ...INJECTIONS]) {
          await act({ id }).expect(404);
        }
      } finally {
        await owner.query(`DELETE FROM orders WHERE id = 0`);
      }

      const bob = await visitorOf(BOB.email);
      const bobMessage = await client.say(bob, 'hello');
      const escaped = await request(app.url)
        .post('/api/widget/data-lookup/row-action')
        .set(bearer(bob))
        .send({
          conversation_id: bobMessage.conversation_id,
          rule_id: 'orders',
          action_id: 'track',
          row: { id: '100' },
        })
        .expect(200);
      expect(escaped.body.reply_body).toBe('Order 100 is &lt;img src=x onerror=alert(1)&gt;.');
    });
  });

  describe('a database that fails', () => {
    it('answers 503 within the timeout when a statement is slow', () =>
      expectSlowDatabaseAnswered(app.url, mysqlSettings(owner.readerUrl)));

    it('answers 503 at once when it is gone, and within the timeout when it does not answer', () =>
      expectGoneDatabaseAnswered(app.url, owner.readerUrl, mysqlSettings));
  });
});
