import { simpleParser } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, logged, startApp } from '../utils/app-process';
import { type DovecotServer, dovecotAvailable, startDovecot } from '../utils/dovecot';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

const DOMAIN = 'reply.acme.example';
const SUPPORT = { user: 'support@acme.example', password: 'imap-secret-support' };
const SALES = { user: 'sales@acme.example', password: 'imap-secret-sales' };
const SHARED = { user: 'shared@acme.example', password: 'imap-secret-shared' };

let sequence = 0;
function mail(o: { from: string; to: string; subject: string; text: string; messageId?: string }) {
  return [
    `From: Carol Customer <${o.from}>`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: ${o.messageId ?? `<imap-${Date.now()}-${++sequence}@mail.example.com>`}`,
    'Date: Wed, 25 Nov 2026 10:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    o.text,
    '',
  ].join('\r\n');
}

const describeImap = dovecotAvailable() ? describe : describe.skip;

/**
 * The IMAP door (DESIGN section 9) against Debian's real dovecot: an inbox that reads its own
 * mailbox takes the mails already there and, announced by IDLE, the new ones; each is marked
 * seen and taken once, into the same pipeline as the other doors. The password is sealed and
 * never shown; a server on a private address is refused unless the operator allows it; one
 * instance reads a mailbox when several run.
 */
describeImap('IMAP inboxes', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let dovecot: DovecotServer;
  let acme: Registered;
  let second: AppProcess | undefined;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  let env: Record<string, string>;

  const ticketBySubject = async (subject: string) =>
    (
      await db.query<{ id: string; ticket_number: string; description: string }>(
        `SELECT id::text, ticket_number, description FROM tickets WHERE subject = $1 ORDER BY id`,
        [subject],
      )
    ).rows;
  const inbox = async (id: number) =>
    (
      await request(app.url)
        .get(`/api/agent/email-inboxes/${id}`)
        .set(bearer(acme.token))
        .expect(200)
    ).body.data as {
      imap?: { status: string | null; last_error: string | null; host: string; user: string };
    };

  beforeAll(async () => {
    smtp = await startSmtp();
    dovecot = await startDovecot([SUPPORT, SALES, SHARED]);
    env = {
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: DOMAIN,
      // Only the first look and IDLE bring mail in these tests: the next look is minutes away.
      IMAP_POLL_SECONDS: '300',
      IMAP_ALLOWED_HOSTS: `127.0.0.1:${dovecot.port}`,
    };
    ({ app, db } = suite = await startTestApp(env));
    acme = await registerOrganization(app.url, 'Acme');
  });

  afterAll(async () => {
    await second?.stop();
    await suite?.stop();
    await dovecot?.stop();
    await smtp?.close();
  });

  it('takes the mails in the mailbox and, by IDLE, new ones: a ticket each, once, marked seen', async () => {
    await dovecot.append(
      SUPPORT.user,
      mail({
        from: 'carol@example.com',
        to: SUPPORT.user,
        subject: 'Parcel lost',
        text: 'Where is it?',
      }),
    );
    const created = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(acme.token))
      .send({
        name: 'Support',
        address: SUPPORT.user,
        imap: {
          host: '127.0.0.1',
          port: dovecot.port,
          tls: false,
          user: SUPPORT.user,
          password: SUPPORT.password,
        },
      })
      .expect(201);
    expect(created.body.data.imap).toEqual({
      host: '127.0.0.1',
      port: dovecot.port,
      tls: false,
      user: SUPPORT.user,
      folder: 'INBOX',
      status: null,
      last_error: null,
      checked_at: null,
    });
    // The password is sealed in the database and never shown again.
    expect(JSON.stringify(created.body)).not.toContain(SUPPORT.password);
    const stored = await db.query<{ imap_password_sealed: string }>(
      `SELECT imap_password_sealed FROM email_inboxes WHERE id = $1`,
      [created.body.data.id],
    );
    expect(stored.rows[0].imap_password_sealed).toBeTruthy();
    expect(stored.rows[0].imap_password_sealed).not.toContain(SUPPORT.password);

    const [first] = await eventually(
      () => ticketBySubject('Parcel lost').then((rows) => (rows.length > 0 ? rows : undefined)),
      20_000,
    );
    expect(first.description).toBe('Where is it?');
    expect((await inbox(created.body.data.id)).imap?.status).toBe('connected');

    // New mail while connected: announced by IDLE (the next look is five minutes away).
    await dovecot.append(
      SUPPORT.user,
      mail({
        from: 'dave@example.com',
        to: SUPPORT.user,
        subject: 'Wrong size',
        text: 'Too small.',
      }),
    );
    await eventually(() => ticketBySubject('Wrong size').then((rows) => rows.length > 0), 8_000);

    // Both marked seen; the same mail delivered again (same Message-ID) is taken once.
    await eventually(
      async () => (await dovecot.messages(SUPPORT.user)).every((message) => message.seen),
      5_000,
    );
    const again = mail({
      from: 'dave@example.com',
      to: SUPPORT.user,
      subject: 'Twice',
      text: 'Once only',
      messageId: '<same-message@mail.example.com>',
    });
    await dovecot.append(SUPPORT.user, again);
    await eventually(() => ticketBySubject('Twice').then((rows) => rows.length > 0), 8_000);
    await dovecot.append(SUPPORT.user, again);
    await eventually(
      async () =>
        (await db.query(`SELECT 1 FROM inbound_mails WHERE door = 'imap' AND status = 'duplicate'`))
          .rows.length === 1,
      8_000,
    );
    expect(await ticketBySubject('Twice')).toHaveLength(1);
    const doors = await db.query(`SELECT DISTINCT door FROM inbound_mails`);
    expect(doors.rows).toEqual([{ door: 'imap' }]);

    // The customer answers the acknowledgement; the answer reaches the same mailbox (the reply
    // domain's mail lands there too) and becomes a comment on the ticket.
    const ack = await simpleParser((await smtp.next('carol@example.com')).raw);
    // The ticket number and the site's name, never the sender's subject (issue 40).
    expect(ack.subject).toMatch(new RegExp(`^\\[#${first.ticket_number}\\] `));
    expect(ack.subject).not.toContain('Parcel lost');
    await dovecot.append(
      SUPPORT.user,
      mail({
        from: 'carol@example.com',
        to: ack.replyTo!.value[0].address!,
        subject: `Re: ${ack.subject}`,
        text: 'Found it, thanks!',
      }),
    );
    await eventually(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM ticket_comments WHERE ticket_id = $1 AND body = $2 AND author_type = 'customer'`,
            [first.id, 'Found it, thanks!'],
          )
        ).rows.length === 1,
      8_000,
    );
  });

  it('refuses a server on an address the operator did not allow, reports a wrong password, and can be changed or stopped', async () => {
    const refused = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(acme.token))
      .send({
        name: 'Elsewhere',
        address: 'elsewhere@acme.example',
        imap: {
          host: '127.0.0.2',
          port: dovecot.port,
          tls: false,
          user: SALES.user,
          password: SALES.password,
        },
      })
      .expect(201);
    const wrong = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(acme.token))
      .send({
        name: 'Sales',
        address: SALES.user,
        imap: {
          host: '127.0.0.1',
          port: dovecot.port,
          tls: false,
          user: SALES.user,
          password: 'not-it',
        },
      })
      .expect(201);
    const failed = async (id: number) => {
      const imap = (await inbox(id)).imap;
      return imap?.status === 'failed' ? imap : undefined;
    };
    const refusal = await eventually(() => failed(refused.body.data.id), 20_000);
    expect(refusal.last_error).toMatch(/private or loopback address/);
    const denied = await eventually(() => failed(wrong.body.data.id), 20_000);
    expect(denied.last_error).toBe('The server refused the user name or password.');
    await logged(app, 'IMAP server refused by the address policy');

    // The right password (the rest kept): connected, and its mail is taken.
    await dovecot.append(
      SALES.user,
      mail({
        from: 'erin@example.com',
        to: SALES.user,
        subject: 'Bulk order',
        text: '500 pieces?',
      }),
    );
    await request(app.url)
      .patch(`/api/agent/email-inboxes/${wrong.body.data.id}`)
      .set(bearer(acme.token))
      .send({
        imap: {
          host: '127.0.0.1',
          port: dovecot.port,
          tls: false,
          user: SALES.user,
          password: SALES.password,
        },
      })
      .expect(200);
    await eventually(() => ticketBySubject('Bulk order').then((rows) => rows.length > 0), 20_000);
    expect((await inbox(wrong.body.data.id)).imap?.status).toBe('connected');

    // Stopping: no imap any more.
    const stopped = await request(app.url)
      .patch(`/api/agent/email-inboxes/${wrong.body.data.id}`)
      .set(bearer(acme.token))
      .send({ imap: null })
      .expect(200);
    expect(stopped.body.data.imap).toBeUndefined();
    const cleared = await db.query(
      `SELECT imap_host, imap_password_sealed, imap_lease_owner FROM email_inboxes WHERE id = $1`,
      [wrong.body.data.id],
    );
    expect(cleared.rows[0]).toEqual({
      imap_host: null,
      imap_password_sealed: null,
      imap_lease_owner: null,
    });

    // New settings need a password when none is stored.
    const missing = await request(app.url)
      .patch(`/api/agent/email-inboxes/${wrong.body.data.id}`)
      .set(bearer(acme.token))
      .send({ imap: { host: '127.0.0.1', user: SALES.user } })
      .expect(422);
    expect(missing.body.errors).toHaveProperty(['imap.password']);
  });

  it('lets one instance read a mailbox when several run', async () => {
    second = await startApp({ ...env, DATABASE_URL: suite.databaseUrl });
    const created = await request(app.url)
      .post('/api/agent/email-inboxes')
      .set(bearer(acme.token))
      .send({
        name: 'Shared',
        address: SHARED.user,
        imap: {
          host: '127.0.0.1',
          port: dovecot.port,
          tls: false,
          user: SHARED.user,
          password: SHARED.password,
        },
      })
      .expect(201);
    const subjects = ['Shared one', 'Shared two', 'Shared three'];
    for (const subject of subjects) {
      await dovecot.append(
        SHARED.user,
        mail({ from: 'frank@example.com', to: SHARED.user, subject, text: subject }),
      );
    }
    for (const subject of subjects) {
      await eventually(() => ticketBySubject(subject).then((rows) => rows.length > 0), 25_000);
    }
    // Another round (the holder renews its lease every round, and both instances run theirs on
    // the same period): still each mail stored once (no duplicate copies), the lease not moved.
    const leaseOf = async () =>
      (
        await db.query<{ owner: string; until: Date }>(
          `SELECT imap_lease_owner AS owner, imap_lease_until AS until FROM email_inboxes
           WHERE id = $1`,
          [created.body.data.id],
        )
      ).rows[0];
    const before = await leaseOf();
    await eventually(async () => (await leaseOf()).until > before.until, 25_000);
    expect((await leaseOf()).owner).toBe(before.owner);
    const stored = await db.query<{ subject: string; status: string }>(
      `SELECT subject, status FROM inbound_mails WHERE subject = ANY($1) ORDER BY subject`,
      [subjects],
    );
    expect(stored.rows).toEqual(
      [...subjects].sort().map((subject) => ({ subject, status: 'processed' })),
    );
    const lease = await db.query(`SELECT imap_lease_owner FROM email_inboxes WHERE id = $1`, [
      created.body.data.id,
    ]);
    expect(lease.rows[0].imap_lease_owner).toBeTruthy();
    const connected = [app, second].filter((instance) =>
      instance.logs.some(
        (line) =>
          line.msg === 'IMAP mailbox connected' && line.inboxId === String(created.body.data.id),
      ),
    );
    expect(connected).toHaveLength(1);
  });
});
