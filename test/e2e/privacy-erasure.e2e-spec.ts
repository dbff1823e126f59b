import { simpleParser } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { WEBHOOK_EVENTS } from '../../src/modules/outbox/events/catalogue';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { freePort } from '../utils/local-server';
import { type SmtpCapture, startSmtp, mailSays } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startReceiver } from '../utils/webhook-receiver';

const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';
const EMAIL = 'zelda.quillfeather@example.test';
const NAME = 'Zelda Quillfeather';
const PHRASE = 'purple-walrus-4711';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Every text and JSON column of every table of the database (`information_schema.columns`),
 * searched for `needle`: the places it still stands, as `table.column`.
 */
async function whereItStands(db: Pool, needle: string): Promise<string[]> {
  const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
       AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY',
         'bytea')`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns.rows) {
    const condition =
      type === 'bytea'
        ? `position(convert_to($1, 'UTF8') IN "${column}") > 0`
        : `"${column}"::text ILIKE '%' || $1 || '%'`;
    const hits = await db.query(`SELECT 1 FROM "${table}" WHERE ${condition} LIMIT 1`, [needle]);
    if (hits.rows.length > 0) found.push(`${table}.${column}`);
  }
  return found.sort();
}

/**
 * Erasure leaves nothing behind (DESIGN section 12, issue 28): after `DELETE
 * /api/agent/visitors/{visitor}` a search of every text and JSON column of the whole database
 * finds neither the visitor's address, nor its name, nor a phrase it wrote: not in the tickets
 * (subject, description, the customer's comments), the outbox, the webhook deliveries and their
 * attempts' logged responses (the delivered and the pending ones), the mail log (sent and queued),
 * nor the inbound mails.
 */
describe('privacy: erasure leaves nothing behind', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let smtpOpen = true;
  let org: Registered;
  let echo: Awaited<ReturnType<typeof startReceiver>>;
  let failing: Awaited<ReturnType<typeof startReceiver>>;

  const raw = (o: { to: string; subject: string; text: string }) =>
    [
      `From: ${NAME} <${EMAIL}>`,
      `To: ${o.to}`,
      `Subject: ${o.subject}`,
      `Message-ID: <m-${Date.now()}-${Math.random().toString(36).slice(2)}@mail.example.test>`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      o.text,
      '',
    ].join('\r\n');
  const inbound = (mail: string) =>
    request(app.url)
      .post('/api/inbound/email')
      .set({ ...auth(INBOUND_TOKEN), 'Content-Type': 'message/rfc822' })
      .send(Buffer.from(mail))
      .expect(200);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: DOMAIN,
      INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
      INBOUND_SMTP_PORT: String(await freePort()),
      INBOUND_SMTP_HOST: '127.0.0.1',
      // A mail that cannot be sent stays queued for the length of the test.
      MAIL_RETRY_DELAY_MS: '600000',
    }));
    org = await registerOrganization(app.url, 'Acme');
    // One endpoint echoes what it is sent (its logged responses hold it), one always fails (its
    // deliveries stay pending, with retries to come).
    echo = await startReceiver((hook) => ({ status: 200, body: hook.raw }));
    failing = await startReceiver(() => ({ status: 500, body: 'down' }));
    for (const receiver of [echo, failing]) {
      await request(app.url)
        .post('/api/agent/webhooks')
        .set(auth(org.token))
        .send({ url: `${receiver.url}/hook`, events: WEBHOOK_EVENTS })
        .expect(201);
    }
  });

  afterAll(async () => {
    await echo?.close();
    await failing?.close();
    await suite?.stop();
    if (smtpOpen) await smtp?.close();
  });

  it('finds none of the visitor in any table after the erasure', async () => {
    // A chat: the visitor's profile, a message, a review comment.
    const init = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_name: NAME, visitor_email: EMAIL })
      .expect(200);
    const token = init.body.session_token as string;
    const visitorId = init.body.visitor_id as number;
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(token))
      .send({ body: `My secret is ${PHRASE} in the chat` })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${init.body.conversation_id}/messages`)
      .set(auth(org.token))
      .send({ body: 'Thanks, we will look into it.' })
      .expect(201);
    // A ticket from the widget, with the visitor's text.
    await request(app.url)
      .post('/api/widget/tickets')
      .set(auth(token))
      .send({
        subject: `Widget ticket ${PHRASE}`,
        description: `Described ${PHRASE}`,
        name: NAME,
        email: EMAIL,
      })
      .expect(201);

    // A ticket by mail from the visitor's address: acknowledged by mail, answered by an agent
    // (mailed), answered again by the customer (a comment by the customer).
    const inbox = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(auth(org.token))
      .send({ name: 'Support', address: 'support@acme.example' })
      .expect(201);
    const opened = await inbound(
      raw({
        to: inbox.body.data.forwarding_address,
        subject: `Mailed ticket ${PHRASE}`,
        text: `The mail says ${PHRASE}`,
      }),
    );
    const ticketId = opened.body.data.ticket_id as number;
    await smtp.next(EMAIL);
    await request(app.url)
      .post(`/api/agent/tickets/${ticketId}/comments`)
      .set(auth(org.token))
      .send({ body: 'Could you tell us the order number?' })
      .expect(201);
    const reply = await simpleParser(
      (await smtp.next(EMAIL, (mail) => mailSays(mail, 'order number'))).raw,
    );
    await inbound(
      raw({
        to: reply.replyTo!.value[0].address!,
        subject: 'Re: your ticket',
        text: `The customer answers ${PHRASE}`,
      }),
    );
    const comments = await db.query(
      `SELECT author_type FROM ticket_comments WHERE ticket_id = $1 ORDER BY id`,
      [ticketId],
    );
    expect(comments.rows.map((row) => row.author_type)).toEqual(['agent', 'customer']);

    // The webhooks went out: the echoing endpoint got the visitor's text (and echoed it back into
    // the delivery log); the failing one holds pending deliveries with it.
    await until(
      async () => (echo.received.some((hook) => hook.raw.includes(PHRASE)) ? true : undefined),
      'a webhook carrying the phrase',
    );
    await until(async () => {
      const rows = await db.query(
        `SELECT 1 FROM webhook_deliveries WHERE event = 'ticket.comment_added' AND status = 'succeeded'`,
      );
      return rows.rows.length > 0 ? true : undefined;
    }, 'the comment delivered');
    const pending = await db.query(
      `SELECT count(*)::int AS count FROM webhook_deliveries
       WHERE status = 'pending' AND body LIKE '%' || $1 || '%'`,
      [PHRASE],
    );
    expect(pending.rows[0].count).toBeGreaterThan(0);

    // A mail still queued when the erasure comes: SMTP is down for the second answer.
    await smtp.close();
    smtpOpen = false;
    await request(app.url)
      .post(`/api/agent/tickets/${ticketId}/comments`)
      .set(auth(org.token))
      .send({ body: 'Any news on your side?' })
      .expect(201);
    const queued = await until(async () => {
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM mail_log WHERE recipient = $1 AND status = 'queued' AND attempts > 0`,
        [EMAIL],
      );
      return rows.rows[0];
    }, 'a queued mail that failed once');

    // Before the erasure the whole database holds the visitor in many places.
    expect(await whereItStands(db, EMAIL)).toEqual(
      expect.arrayContaining(['mail_log.recipient', 'tickets.customer_email', 'visitors.email']),
    );
    expect(await whereItStands(db, PHRASE)).toEqual(
      expect.arrayContaining([
        'outbox_events.payload',
        'ticket_comments.body',
        'tickets.subject',
        'webhook_attempts.response_excerpt',
        'webhook_deliveries.body',
      ]),
    );

    const erased = await request(app.url)
      .delete(`/api/agent/visitors/${visitorId}`)
      .set(auth(org.token))
      .expect(200);
    expect(erased.body.data).toMatchObject({ conversations: 1, tickets: 2 });

    expect(await whereItStands(db, EMAIL)).toEqual([]);
    expect(await whereItStands(db, NAME)).toEqual([]);
    expect(await whereItStands(db, PHRASE)).toEqual([]);

    // The queued mail is not sent any more; the agents' comments stay, the customer's do not.
    const mail = await db.query(`SELECT status, recipient, subject FROM mail_log WHERE id = $1`, [
      queued.id,
    ]);
    expect(mail.rows[0]).toEqual({ status: 'failed', recipient: '[erased]', subject: '[erased]' });
    const after = await db.query(
      `SELECT author_type, body FROM ticket_comments WHERE ticket_id = $1 ORDER BY id`,
      [ticketId],
    );
    expect(after.rows).toEqual([
      { author_type: 'agent', body: 'Could you tell us the order number?' },
      { author_type: 'customer', body: '[erased]' },
      { author_type: 'agent', body: 'Any news on your side?' },
    ]);
    // The pending deliveries stay pending, their bodies without the erased text.
    const redacted = await db.query<{ body: string }>(
      `SELECT body FROM webhook_deliveries WHERE status = 'pending' AND event = 'message.received'`,
    );
    expect(redacted.rows.length).toBeGreaterThan(0);
    expect(JSON.parse(redacted.rows[0].body).data.message).toMatchObject({ body: '[erased]' });
  });
});
