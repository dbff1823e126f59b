import { simpleParser } from 'mailparser';
import net from 'node:net';
import { createPostgresBackend, Queue, setDefaultBackendFactory } from 'bullmq';
import { createTransport } from 'nodemailer';
import type { Pool } from 'pg';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { freePort } from '../utils/local-server';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { settled } from '../utils/database';
import { startTestApp, type TestApp } from '../utils/test-app';
import { eventually } from '../utils/app-process';

const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';

interface Inbox {
  id: number;
  name: string;
  address: string;
  site_id: number;
  forwarding_address: string;
  acknowledge: boolean;
}

/** What a ticket's mail sets going: the mail job (sent, or nothing sent). */
const MAIL_QUEUES = ['outgoing-mail'];

/**
 * Email inboxes (DESIGN section 9): CRUD for owners and admins, a new mail to the forwarding
 * address opens an `email` ticket and is acknowledged, the customer's answers become comments by
 * the customer, an agent's public comment is mailed and an internal one never.
 */
describe('email inboxes', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let databaseUrl: string;
  let smtp: SmtpCapture;
  let inboundPort: number;
  let org: Registered;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const raw = (o: {
    from: string;
    to: string;
    subject: string;
    text: string;
    inReplyTo?: string;
  }) =>
    [
      `From: Carol Customer <${o.from}>`,
      `To: ${o.to}`,
      `Subject: ${o.subject}`,
      `Message-ID: <m-${Date.now()}-${Math.random().toString(36).slice(2)}@mail.example.com>`,
      ...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`] : []),
      'Content-Type: text/plain; charset=utf-8',
      '',
      o.text,
      '',
      '> quoted earlier text',
      '',
    ].join('\r\n');
  const post = (mail: string) =>
    request(app.url)
      .post('/api/inbound/email')
      .set({ ...bearer(INBOUND_TOKEN), 'Content-Type': 'message/rfc822' })
      .send(Buffer.from(mail));
  const comments = async (ticketId: number) =>
    (
      await db.query<{ author_type: string; body: string; is_internal: boolean }>(
        `SELECT author_type, body, is_internal FROM ticket_comments WHERE ticket_id = $1 ORDER BY id`,
        [ticketId],
      )
    ).rows;

  const siteName = async (siteId: number) =>
    (await db.query<{ name: string }>(`SELECT name FROM sites WHERE id = $1`, [siteId])).rows[0]
      .name;

  beforeAll(async () => {
    smtp = await startSmtp();
    inboundPort = await freePort();
    ({ app, db, databaseUrl } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: DOMAIN,
      INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
      INBOUND_SMTP_PORT: String(inboundPort),
      INBOUND_SMTP_HOST: '127.0.0.1',
      MAIL_FROM: 'no-reply@service.acme.example',
      MAIL_ACKS_PER_HOUR_PER_INBOX: '6',
      MAIL_ACKS_PER_HOUR_PER_ORG: '8',
      MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG: '3',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('lets owners and admins manage inboxes, each with its own forwarding address', async () => {
    const created = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(org.token))
      .send({ name: 'Sales', address: 'Sales@Acme.example' })
      .expect(201);
    const inbox = created.body.data as Inbox;
    expect(inbox).toMatchObject({
      name: 'Sales',
      address: 'sales@acme.example',
      site_id: org.site.id,
      acknowledge: true,
    });
    expect(inbox.forwarding_address).toMatch(
      new RegExp(`^inbox-[a-z2-7]{32}@${DOMAIN.replace(/\./g, '\\.')}$`),
    );

    const changed = await request(app.url)
      .patch(`/api/agent/email-inboxes/${inbox.id}`)
      .set(bearer(org.token))
      .send({ name: 'Sales team', acknowledge: false })
      .expect(200);
    expect(changed.body.data).toMatchObject({
      name: 'Sales team',
      acknowledge: false,
      forwarding_address: inbox.forwarding_address,
    });
    const list = await request(app.url)
      .get('/api/agent/email-inboxes')
      .set(bearer(org.token))
      .expect(200);
    expect(list.body.data.map((row: Inbox) => row.id)).toEqual([inbox.id]);

    // Another organization cannot take the address, nor see the inbox.
    const other = await registerOrganization(app.url, 'Other');
    await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(other.token))
      .send({ name: 'Mine', address: 'sales@acme.example' })
      .expect(409);
    await request(app.url)
      .get(`/api/agent/email-inboxes/${inbox.id}`)
      .set(bearer(other.token))
      .expect(404);
    const agent = await addMember(app.url, org.token, 'agent');
    await request(app.url).get('/api/agent/email-inboxes').set(bearer(agent.token)).expect(403);
    await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(org.token))
      .send({ name: 'Bad', address: 'not an address' })
      .expect(422);

    await request(app.url)
      .delete(`/api/agent/email-inboxes/${inbox.id}`)
      .set(bearer(org.token))
      .expect(200);
    await request(app.url)
      .get(`/api/agent/email-inboxes/${inbox.id}`)
      .set(bearer(org.token))
      .expect(404);
  });

  it('opens a ticket from a new mail, acknowledges it, and threads the answers both ways', async () => {
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(org.token))
        .send({ name: 'Support', address: 'support@acme.example' })
        .expect(201)
    ).body.data as Inbox;

    // A customer writes to support@, forwarded to the inbox's forwarding address over SMTP.
    await createTransport({ host: '127.0.0.1', port: inboundPort, ignoreTLS: true }).sendMail({
      envelope: { from: 'carol@example.com', to: [inbox.forwarding_address] },
      raw: raw({
        from: 'carol@example.com',
        to: inbox.address,
        subject: 'Order 1234 never arrived',
        text: 'Where is my parcel?',
      }),
    });
    const [ticket] = (
      await db.query<{
        id: string;
        ticket_number: string;
        source: string;
        subject: string;
        description: string;
        customer_name: string;
        customer_email: string;
      }>(
        `SELECT id::text, ticket_number, source, subject, description, customer_name, customer_email FROM tickets
         WHERE organization_id = $1 ORDER BY id DESC LIMIT 1`,
        [org.organization.id],
      )
    ).rows;
    expect(ticket).toMatchObject({
      source: 'email',
      subject: 'Order 1234 never arrived',
      description: 'Where is my parcel?',
      customer_name: 'Carol Customer',
      customer_email: 'carol@example.com',
    });
    const agentView = await request(app.url)
      .get(`/api/agent/tickets/${ticket.id}`)
      .set(bearer(org.token))
      .expect(200);
    expect(agentView.body.data.source).toBe('email');

    const ack = await simpleParser((await smtp.next('carol@example.com')).raw);
    // The ticket number and the site's name: nothing the sender wrote.
    expect(ack.subject).toBe(`[#${ticket.ticket_number}] ${await siteName(inbox.site_id)}`);
    expect(ack.text).toContain(`Its number is ${ticket.ticket_number}.`);
    expect(ack.text).not.toContain('Carol');
    expect(ack.headers.get('auto-submitted')).toBe('auto-replied');
    const replyTo = ack.replyTo!.value[0].address!;
    expect(replyTo).toMatch(/^reply\+[a-z2-7]{32}@reply\.acme\.example$/);

    // The customer answers the acknowledgement: a comment by the customer, quote stripped.
    const answered = await post(
      raw({
        from: 'carol@example.com',
        to: replyTo,
        subject: 'Re: ack',
        text: 'It was order 1234.',
      }),
    ).expect(200);
    expect(answered.body.data).toMatchObject({
      status: 'processed',
      ticket_id: Number(ticket.id),
      conversation_id: null,
    });
    // Without the reply address, In-Reply-To inside the inbox's organization finds the ticket.
    await post(
      raw({
        from: 'carol@example.com',
        to: 'support@acme.example',
        subject: 'Re: ack',
        text: 'Any news?',
        inReplyTo: ack.messageId,
      }),
    ).expect(200);
    expect(await comments(Number(ticket.id))).toEqual([
      { author_type: 'customer', body: 'It was order 1234.', is_internal: false },
      { author_type: 'customer', body: 'Any news?', is_internal: false },
    ]);
    const view = await request(app.url)
      .get(`/api/agent/tickets/${ticket.id}`)
      .set(bearer(org.token))
      .expect(200);
    expect(view.body.data.comments.map((c: { author_type: string }) => c.author_type)).toEqual([
      'customer',
      'customer',
    ]);

    // An internal note is never mailed; a public comment is, threaded after the acknowledgement.
    await request(app.url)
      .post(`/api/agent/tickets/${ticket.id}/comments`)
      .set(bearer(org.token))
      .send({ body: 'Carrier says it is lost.', is_internal: true })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/tickets/${ticket.id}/comments`)
      .set(bearer(org.token))
      .send({ body: 'We are sending a <new> one today.' })
      .expect(201);
    const reply = await simpleParser((await smtp.next('carol@example.com')).raw);
    expect(reply.subject).toBe(`[#${ticket.ticket_number}] Order 1234 never arrived`);
    expect(reply.text).toContain('Olivia Owner:\n  We are sending a <new> one today.');
    expect(reply.html).toContain('We are sending a &#60;new&#62; one today.');
    expect(reply.inReplyTo).toBe(ack.messageId);
    await settled(db, MAIL_QUEUES);
    const toCarol = smtp.mails.filter((mail) => mail.to.includes('carol@example.com'));
    expect(toCarol).toHaveLength(2);
    expect(toCarol.some((mail) => mail.raw.includes('Carrier says'))).toBe(false);
  });

  it('opens a ticket but sends no acknowledgement to an autoresponder, nor a flood of them to one sender', async () => {
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(org.token))
        .send({ name: 'Invoices', address: 'invoices@acme.example' })
        .expect(201)
    ).body.data as Inbox;
    const auto = raw({
      from: 'robot@example.com',
      to: inbox.forwarding_address,
      subject: 'Out of office',
      text: 'I am away.',
    }).replace('Content-Type:', 'Auto-Submitted: auto-replied\r\nContent-Type:');
    expect((await post(auto).expect(200)).body.data.ticket_id).toEqual(expect.any(Number));
    for (let i = 0; i < 7; i += 1) {
      await post(
        raw({
          from: 'flood@example.com',
          to: inbox.forwarding_address,
          subject: `Flood ${i}`,
          text: 'Hello',
        }),
      ).expect(200);
    }
    await settled(db, MAIL_QUEUES);
    expect(smtp.mails.filter((mail) => mail.to.includes('robot@example.com'))).toHaveLength(0);
    expect(smtp.mails.filter((mail) => mail.to.includes('flood@example.com'))).toHaveLength(5);
    const tickets = await db.query(
      `SELECT count(*)::int AS n FROM tickets WHERE customer_email = 'flood@example.com'`,
    );
    expect(tickets.rows[0].n).toBe(7);
  });

  it('acknowledges forged senders with no word of theirs, and only up to the hourly caps', async () => {
    const spammed = await registerOrganization(app.url, 'Prize target');
    const inbox = async (address: string) =>
      (
        await request(app.url)
          .post('/api/agent/email-inboxes')
          .set(bearer(spammed.token))
          .send({ name: address, address })
          .expect(201)
      ).body.data as Inbox;
    const first = await inbox('help@prize-target.example');
    const second = await inbox('sales@prize-target.example');
    const spam = (i: number, to: string) =>
      [
        `From: "Claim your prize at http://spam.example" <victim${i}@victims.example>`,
        `To: ${to}`,
        'Subject: You won 1000 EUR at http://spam.example',
        `Message-ID: <prize-${i}-${Date.now()}@spam.example>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Claim it now.',
        '',
      ].join('\r\n');
    // Eight to the first inbox (capped at 6 an hour), then four to the second: the organization's
    // cap (8) leaves it two.
    for (let i = 0; i < 8; i += 1) await post(spam(i, first.address)).expect(200);
    for (let i = 8; i < 12; i += 1) await post(spam(i, second.address)).expect(200);
    await settled(db, MAIL_QUEUES);
    const toVictims = smtp.mails.filter((mail) =>
      mail.to.some((to) => to.endsWith('@victims.example')),
    );
    expect(toVictims).toHaveLength(8);
    const byInbox = (from: number, to: number) =>
      toVictims.filter((mail) =>
        mail.to.some((address) => {
          const n = Number(/^victim(\d+)@/.exec(address)?.[1]);
          return n >= from && n < to;
        }),
      );
    expect(byInbox(0, 8)).toHaveLength(6);
    expect(byInbox(8, 12)).toHaveLength(2);
    const name = await siteName(first.site_id);
    for (const mail of toVictims) {
      const parsed = await simpleParser(mail.raw);
      expect(mail.raw).not.toContain('spam.example');
      expect(parsed.subject).toMatch(new RegExp(`^\\[#TKT-[0-9-]+\\] ${name}$`));
      expect(parsed.to).toMatchObject({ value: [{ name: '' }] });
    }
    // Every mail still opened its ticket.
    const tickets = await db.query(
      `SELECT count(*)::int AS n FROM tickets WHERE organization_id = $1`,
      [spammed.organization.id],
    );
    expect(tickets.rows[0].n).toBe(12);
  });

  it('mails at most the hourly budget of new addresses; past it mails wait, and the log says why', async () => {
    // Issue 40, point 8: an organization's agents answering tickets opened by forged senders
    // mailed every one of them. With a budget of 3 an hour, five strangers get three mails now.
    const sender = await registerOrganization(app.url, 'Budget');
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(sender.token))
        .send({ name: 'Help', address: 'help@budget.example', acknowledge: false })
        .expect(201)
    ).body.data as Inbox;
    const strangers = [0, 1, 2, 3, 4].map((i) => `stranger${i}@strangers.example`);
    for (const from of strangers) {
      await post(raw({ from, to: inbox.address, subject: 'Hello', text: 'Write to me.' })).expect(
        200,
      );
    }
    const tickets = (
      await db.query<{ id: string; customer_email: string }>(
        `SELECT id::text, customer_email FROM tickets WHERE organization_id = $1 ORDER BY id`,
        [sender.organization.id],
      )
    ).rows;
    expect(tickets.map((t) => t.customer_email)).toEqual(strangers);
    const comment = (ticketId: string, body: string) =>
      request(app.url)
        .post(`/api/agent/tickets/${ticketId}/comments`)
        .set(bearer(sender.token))
        .send({ body })
        .expect(201);
    for (const ticket of tickets) await comment(ticket.id, 'Here is your answer.');

    // The mails to the strangers (the owner's address check is in the log too).
    type Entry = {
      recipient: string;
      status: string;
      held_until: string | null;
      held_reason: string | null;
    };
    const log = async () =>
      (
        await request(app.url)
          .get('/api/agent/mail-log?per_page=50')
          .set(bearer(sender.token))
          .expect(200)
      ).body.data.filter((entry: Entry) =>
        entry.recipient.endsWith('@strangers.example'),
      ) as Entry[];
    let entries: Entry[] = [];
    await eventually(async () => {
      entries = await log();
      return (
        entries.filter((e) => e.status === 'sent').length === 3 &&
        entries.filter((e) => e.held_reason !== null).length === 2
      );
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the mail log: ${JSON.stringify(entries)}`);
    });
    const held = entries.filter((e) => e.held_reason !== null);
    for (const entry of held) {
      expect(entry).toMatchObject({ status: 'queued', held_reason: 'new_recipient_budget' });
      // Free when the first of the hour's three admissions is an hour old.
      const wait = new Date(entry.held_until!).getTime() - Date.now();
      expect(wait).toBeGreaterThan(55 * 60_000);
      expect(wait).toBeLessThanOrEqual(60 * 60_000);
    }
    const mailedTo = () =>
      smtp.mails.flatMap((mail) => mail.to).filter((to) => to.endsWith('@strangers.example'));
    const sent = entries.filter((e) => e.status === 'sent').map((e) => e.recipient);
    await eventually(async () => mailedTo().length === 3);
    expect(new Set(mailedTo())).toEqual(new Set(sent));

    // An address mailed once is known: a second answer goes at once, budget spent or not.
    const first = tickets.find((t) => t.customer_email === sent[0])!;
    await comment(first.id, 'And one more thing.');
    await eventually(async () => mailedTo().filter((to) => to === sent[0]).length === 2);
    // A member is never a new address: the owner's test mail goes too.
    await request(app.url)
      .post('/api/agent/mail-log/test')
      .set(bearer(sender.token))
      .send({})
      .expect(201);
    await eventually(async () => smtp.mails.some((mail) => mail.to.includes(sender.user.email)));

    // The hour passes (the admissions made older, the waiting jobs' time brought forward, as the
    // clock would): the two waiting mails go, and the log shows them sent.
    await db.query(
      `UPDATE mail_recipients SET first_mailed_at = first_mailed_at - interval '1 hour'
        WHERE organization_id = $1`,
      [sender.organization.id],
    );
    setDefaultBackendFactory(createPostgresBackend);
    const queue = new Queue('outgoing-mail', { connection: { connectionString: databaseUrl } });
    try {
      const delayed = await queue.getDelayed();
      expect(delayed).toHaveLength(2);
      for (const job of delayed) await job.promote();
    } finally {
      await queue.close();
    }
    await eventually(async () => new Set(mailedTo()).size === 5);
    await settled(db, MAIL_QUEUES);
    entries = await log();
    expect(entries.filter((e) => e.held_reason !== null || e.held_until !== null)).toEqual([]);
    expect(entries.every((e) => e.status === 'sent')).toBe(true);
  });

  it('takes the same Message-ID once when it arrives four times at once', async () => {
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(org.token))
        .send({ name: 'Orders', address: 'orders@acme.example', acknowledge: false })
        .expect(201)
    ).body.data as Inbox;
    const mail = raw({
      from: 'erin@example.com',
      to: inbox.address,
      subject: 'Sent four times at once',
      text: 'Only once, please.',
    });
    const answers = await Promise.all([1, 2, 3, 4].map(() => post(mail).expect(200)));
    expect(answers.map((answer) => answer.body.data.status as string).sort()).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'processed',
    ]);
    const tickets = await db.query(
      `SELECT count(*)::int AS n FROM tickets WHERE subject = 'Sent four times at once'`,
    );
    expect(tickets.rows[0].n).toBe(1);
  });

  it('delivers a mail and marks it taken in one transaction: a failed mark leaves no ticket behind', async () => {
    // Issue 40, point 5: the Message-ID is claimed in the transaction that delivers. Before, the
    // ticket was committed first and the mail marked `processed` after: a failure (a crash)
    // between the two left a ticket and a mail still `received`, which the sweep delivered again.
    const billed = await registerOrganization(app.url, 'Billed');
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(billed.token))
        .send({ name: 'Invoices', address: 'invoices@billed.example' })
        .expect(201)
    ).body.data as Inbox;
    const subject = 'The mark fails once';
    await db.query(`
      CREATE FUNCTION fail_processed_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'processed' AND NEW.subject = '${subject}' THEN
          RAISE EXCEPTION 'the processed mark fails (test)';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER fail_processed_mark BEFORE UPDATE ON inbound_mails
        FOR EACH ROW EXECUTE FUNCTION fail_processed_mark();`);
    try {
      const answer = await post(
        raw({ from: 'fay@example.com', to: inbox.address, subject, text: 'Bill me once.' }),
      ).expect(200);
      // Stored, not taken: the sweep parses it again later.
      expect(answer.body.data.status).toBe('received');
    } finally {
      await db.query(
        `DROP TRIGGER fail_processed_mark ON inbound_mails; DROP FUNCTION fail_processed_mark()`,
      );
    }
    const tickets = await db.query(`SELECT count(*)::int AS n FROM tickets WHERE subject = $1`, [
      subject,
    ]);
    expect(tickets.rows[0].n).toBe(0);
    const stored = await db.query<{ status: string }>(
      `SELECT status FROM inbound_mails ORDER BY id DESC LIMIT 1`,
    );
    expect(stored.rows[0].status).toBe('received');
    // Nor was the acknowledgement sent: it follows the commit.
    await settled(db, MAIL_QUEUES);
    expect(smtp.mails.some((mail) => mail.to.includes('fay@example.com'))).toBe(false);
  });

  it("refuses the service's own addresses as an inbox", async () => {
    for (const address of [
      `postmaster@${DOMAIN}`,
      `abuse@${DOMAIN}`,
      `support@${DOMAIN.toUpperCase()}`,
      'no-reply@service.acme.example',
      'postmaster@service.acme.example',
    ]) {
      const refused = await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(org.token))
        .send({ name: 'Mine now', address })
        .expect(422);
      expect(refused.body).toMatchObject({
        status: false,
        error_code: 'validation_failed',
        errors: { address: [expect.any(String)] },
      });
    }
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(org.token))
        .send({ name: 'Help', address: 'help@acme.example' })
        .expect(201)
    ).body.data as Inbox;
    const changed = await request(app.url)
      .patch(`/api/agent/email-inboxes/${inbox.id}`)
      .set(bearer(org.token))
      .send({ address: `abuse@${DOMAIN}` })
      .expect(422);
    expect(changed.body.errors).toHaveProperty('address');
  });

  it('accepts mail for an inbox address over SMTP and still refuses everything else', async () => {
    const client = createTransport({ host: '127.0.0.1', port: inboundPort, ignoreTLS: true });
    await expect(
      client.sendMail({ from: 'x@example.com', to: 'nobody@acme.example', text: 'hello' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const info = await client.sendMail({
      from: 'dan@example.com',
      to: 'support@acme.example',
      subject: 'Straight to the support address',
      text: 'Hi!',
    });
    expect(info.accepted).toEqual(['support@acme.example']);
    const rows = await db.query(
      `SELECT source FROM tickets WHERE subject = 'Straight to the support address'`,
    );
    expect(rows.rows).toEqual([{ source: 'email' }]);
  });

  it('ends an SMTP session after a few unknown recipients, and counts them against the rate', async () => {
    /** A plain SMTP session: each command answers its reply's code, or 0 once closed. */
    const session = async () => {
      const socket = net.connect(inboundPort, '127.0.0.1');
      const replies: number[] = [];
      const waiting: ((code: number) => void)[] = [];
      let closed = false;
      let buffer = '';
      const deliver = (code: number) => {
        const next = waiting.shift();
        if (next) next(code);
        else replies.push(code);
      };
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^\d{3} /.test(line)) deliver(Number(line.slice(0, 3)));
        }
      });
      socket.on('close', () => {
        closed = true;
        while (waiting.length > 0) waiting.shift()!(0);
      });
      socket.on('error', () => undefined);
      const reply = () =>
        new Promise<number>((resolve) => {
          if (replies.length > 0) resolve(replies.shift()!);
          else if (closed) resolve(0);
          else waiting.push(resolve);
        });
      await reply();
      return {
        command: (line: string) => {
          if (!closed) socket.write(`${line}\r\n`);
          return reply();
        },
        end: () => socket.destroy(),
      };
    };

    // One session trying 300 addresses: three 550s, then the session is ended.
    const probe = await session();
    expect(await probe.command('HELO probe.example')).toBe(250);
    expect(await probe.command('MAIL FROM:<probe@example.com>')).toBe(250);
    const codes: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const code = await probe.command(`RCPT TO:<guess-${i}@acme.example>`);
      codes.push(code);
      if (code === 0) break;
    }
    probe.end();
    expect(codes.slice(0, 4)).toEqual([550, 550, 550, 421]);
    expect(codes.filter((code) => code === 550)).toHaveLength(3);

    // Refused recipients count against the client's rate (60 a minute): new sessions of guesses
    // soon meet a 451 at MAIL FROM, never 300 more answers.
    let mailFrom = 250;
    for (let round = 0; round < 30 && mailFrom === 250; round += 1) {
      const next = await session();
      await next.command('HELO probe.example');
      mailFrom = await next.command('MAIL FROM:<probe@example.com>');
      for (let i = 0; mailFrom === 250 && i < 4; i += 1) {
        if ((await next.command(`RCPT TO:<guess-${round}-${i}@acme.example>`)) === 0) break;
      }
      next.end();
    }
    expect(mailFrom).toBe(451);
  });
});
