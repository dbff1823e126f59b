import { createTransport } from 'nodemailer';
import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { mailedThread } from '../factories/mail-thread';
import { type AppProcess, logged, startApp } from '../utils/app-process';
import { freePort } from '../utils/local-server';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { dropTestDatabase } from '../utils/database';
import { connect, type TestSocket } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';

/** A raw mail as a mail client writes an answer: new text, a signature, the quoted mail. */
function answer(options: {
  from: string;
  to: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  html?: boolean;
}): string {
  const headers = [
    `From: Ada <${options.from}>`,
    `To: ${options.to}`,
    'Subject: Re: New reply from Acme',
    `Message-ID: ${options.messageId}`,
    ...(options.inReplyTo
      ? [`In-Reply-To: ${options.inReplyTo}`, `References: ${options.inReplyTo}`]
      : []),
    'Date: Tue, 25 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
  ];
  if (options.html) {
    return [
      ...headers,
      'Content-Type: text/html; charset=utf-8',
      '',
      `<div>${options.text}</div><div><br></div><blockquote>Earlier text</blockquote>`,
      '',
    ].join('\r\n');
  }
  return [
    ...headers,
    'Content-Type: text/plain; charset=utf-8',
    '',
    options.text,
    '',
    '-- ',
    'Ada Lovelace',
    '',
    'On Tue, Nov 25, 2026 at 9:00 AM Acme <support@acme.example> wrote:',
    '> Yes, we do.',
    '> Anything else?',
    '',
  ].join('\r\n');
}

let sequence = 0;
const newMessageId = () => `<answer-${Date.now()}-${++sequence}@mail.example.com>`;

/**
 * Incoming mail (DESIGN section 9), by the HTTP door and by the built-in SMTP listener, with a
 * real client (nodemailer): an emailed answer lands in its conversation live, quotes and
 * signature stripped, once per Message-ID, reopening a closed conversation; bad input is refused
 * with a clear answer and never a 500.
 */
describe('incoming mail', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let inboundPort: number;
  let acme: Registered;
  let other: Registered;
  const sockets: TestSocket[] = [];
  let restarted: AppProcess | undefined;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const env = () => ({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://chat.acme.example',
    MAIL_REPLY_DOMAIN: DOMAIN,
    CONVERSATION_EMAIL_DELAY_SECONDS: '1',
    INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_MAIL_MAX_BYTES: '100000',
    INBOUND_SMTP_RATE_PER_MINUTE: '25',
  });
  const post = (raw: string | Buffer, token = INBOUND_TOKEN) =>
    request(app.url)
      .post('/api/inbound/email')
      .set({ ...bearer(token), 'Content-Type': 'message/rfc822' })
      .send(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
  const smtpClient = () =>
    createTransport({ host: '127.0.0.1', port: inboundPort, secure: false, ignoreTLS: true });

  const thread = (org: Registered, email: string) => mailedThread(app.url, org, smtp, email);
  const visitorMessages = async (conversationId: number) =>
    (
      await db.query<{ body: string }>(
        `SELECT body FROM messages WHERE conversation_id = $1 AND sender_type = 'visitor' ORDER BY id`,
        [conversationId],
      )
    ).rows.map((row) => row.body);

  beforeAll(async () => {
    smtp = await startSmtp();
    inboundPort = await freePort();
    ({ app, db } = suite = await startTestApp(env()));
    acme = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    if (restarted) {
      // The first app was killed by the crash test: stop the one that replaced it.
      await suite.db.end();
      await restarted.stop();
      await dropTestDatabase(suite.databaseUrl);
    } else {
      await suite?.stop();
    }
    await smtp?.close();
  });

  it('takes an answer posted raw to the HTTP door into its conversation, live, quotes stripped, once', async () => {
    const t = await thread(acme, 'ada@example.com');
    const agent = await connect(suite.direct, '/agent', acme.token);
    sockets.push(agent);
    const live = agent.next<{ sender_type: string; body: string }>(
      'message.created',
      (message) => message.sender_type === 'visitor' && message.body.startsWith('Great'),
    );
    const raw = answer({
      from: t.visitorEmail,
      to: t.replyTo,
      text: 'Great, please ship it to Oslo.',
      messageId: newMessageId(),
      inReplyTo: t.messageId,
    });
    const res = await post(raw).expect(200);
    expect(res.body.data).toMatchObject({ status: 'processed', conversation_id: t.conversationId });
    expect(await live).toMatchObject({
      conversation_id: t.conversationId,
      sender_type: 'visitor',
      body: 'Great, please ship it to Oslo.',
    });
    expect(await visitorMessages(t.conversationId)).toEqual([
      'Do you ship to Norway?',
      'Great, please ship it to Oslo.',
    ]);

    // The same mail again (a retrying MTA, or the same mail by another door): taken once.
    const again = await post(raw).expect(200);
    expect(again.body.data.status).toBe('duplicate');
    expect(await visitorMessages(t.conversationId)).toHaveLength(2);
    const stored = await db.query(
      `SELECT status, door, outcome, sender_mismatch FROM inbound_mails ORDER BY id`,
    );
    expect(stored.rows).toEqual([
      {
        status: 'processed',
        door: 'http',
        outcome: 'conversation_message',
        sender_mismatch: false,
      },
      { status: 'duplicate', door: 'http', outcome: 'duplicate', sender_mismatch: false },
    ]);
  });

  it('takes an answer sent over SMTP by a real client, reopening a closed conversation; HTML-only becomes text', async () => {
    const t = await thread(acme, 'grace@example.com');
    await request(app.url)
      .post(`/api/agent/conversations/${t.conversationId}/close`)
      .set(bearer(acme.token))
      .send({})
      .expect((res) => expect(res.status).toBeLessThan(300));
    const info = await smtpClient().sendMail({
      envelope: { from: t.visitorEmail, to: [t.replyTo] },
      raw: answer({
        from: t.visitorEmail,
        to: t.replyTo,
        text: 'One more <b>question</b>: do you gift-wrap?',
        messageId: newMessageId(),
        html: true,
      }),
    });
    expect(info.accepted).toEqual([t.replyTo]);
    const messages = await visitorMessages(t.conversationId);
    expect(messages[messages.length - 1]).toBe('One more question: do you gift-wrap?');
    const conversation = await db.query(
      `SELECT status, closed_at FROM conversations WHERE id = $1`,
      [t.conversationId],
    );
    expect(conversation.rows[0]).toEqual({ status: 'waiting', closed_at: null });
  });

  it('is never a relay: the SMTP listener refuses other recipients and unknown reply tokens (550)', async () => {
    const client = smtpClient();
    await expect(
      client.sendMail({ from: 'x@example.com', to: 'someone@gmail.example', text: 'relay me' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await expect(
      client.sendMail({
        from: 'x@example.com',
        to: `reply+${'a'.repeat(32)}@${DOMAIN}`,
        text: 'unknown token',
      }),
    ).rejects.toMatchObject({ responseCode: 550 });
  });

  it('refuses an oversized mail: 413 over HTTP, 552 over SMTP', async () => {
    const t = await thread(acme, 'big@example.com');
    const big = answer({
      from: t.visitorEmail,
      to: t.replyTo,
      text: 'x'.repeat(150_000),
      messageId: newMessageId(),
    });
    const res = await post(big).expect(413);
    expect(res.body.error_code).toBe('payload_too_large');
    await expect(
      smtpClient().sendMail({ envelope: { from: t.visitorEmail, to: [t.replyTo] }, raw: big }),
    ).rejects.toMatchObject({ responseCode: 552 });
  });

  it('refuses a malformed mail, a wrong token and a wrong type with a clear answer, never a 500', async () => {
    const garbage = await post(Buffer.from([0, 1, 2, 255, 254, 10, 13, 10, 0])).expect(422);
    expect(garbage.body.error_code).toBe('validation_failed');
    await post('From: nobody\r\n\r\nno address at all\r\n').expect(422);
    await post('Subject: hi\r\n\r\nhello', 'wrong-token-0123456789').expect(401);
    await request(app.url)
      .post('/api/inbound/email')
      .set({ ...bearer(INBOUND_TOKEN), 'Content-Type': 'application/json' })
      .send({ raw: 'x' })
      .expect(415);
    const rows = await db.query(`SELECT outcome FROM inbound_mails WHERE outcome = 'malformed'`);
    expect(rows.rows.length).toBe(2);
    await logged(app, 'incoming mail rejected: malformed');
  });

  it('never matches across organizations: a forged In-Reply-To finds nothing, a reply token wins', async () => {
    const theirs = await thread(other, 'eve@example.com');
    const ours = await thread(acme, 'bob@example.com');
    // An unknown reply token with the other organization's real Message-ID: refused.
    const forged = await post(
      answer({
        from: 'eve@example.com',
        to: `reply+${'b'.repeat(32)}@${DOMAIN}`,
        text: 'Let me in',
        messageId: newMessageId(),
        inReplyTo: theirs.messageId,
      }),
    ).expect(422);
    expect(forged.body.errors).toHaveProperty('recipient');
    // Our token with their Message-ID in In-Reply-To: lands in our conversation only.
    const res = await post(
      answer({
        from: 'bob@example.com',
        to: ours.replyTo,
        text: 'Mine',
        messageId: newMessageId(),
        inReplyTo: theirs.messageId,
      }),
    ).expect(200);
    expect(res.body.data.conversation_id).toBe(ours.conversationId);
    expect(await visitorMessages(theirs.conversationId)).toEqual(['Do you ship to Norway?']);
    await logged(app, 'no live reply address or inbox among its recipients');
  });

  it('parses again, after a restart, a mail stored but never parsed (a crash in between)', async () => {
    const t = await thread(acme, 'crash@example.com');
    const raw = answer({
      from: t.visitorEmail,
      to: t.replyTo,
      text: 'Stored before the crash',
      messageId: newMessageId(),
    });
    await db.query(
      `INSERT INTO inbound_mails (door, envelope_to, raw, size, received_at)
       VALUES ('smtp', $1, $2, $3, now() - interval '5 minutes')`,
      [[t.replyTo], Buffer.from(raw), raw.length],
    );
    await app.kill();
    app = restarted = await startApp({ ...env(), DATABASE_URL: suite.databaseUrl });
    for (let i = 0; i < 100; i += 1) {
      if ((await visitorMessages(t.conversationId)).includes('Stored before the crash')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await visitorMessages(t.conversationId)).toContain('Stored before the crash');
  });

  it('limits mails per client address per minute (451, try later)', async () => {
    const t = await thread(acme, 'flood@example.com');
    const client = smtpClient();
    let refused: { responseCode?: number } | undefined;
    for (let i = 0; i < 40 && !refused; i += 1) {
      await client
        .sendMail({
          envelope: { from: t.visitorEmail, to: [t.replyTo] },
          raw: answer({
            from: t.visitorEmail,
            to: t.replyTo,
            text: `flood ${i}`,
            messageId: newMessageId(),
          }),
        })
        .catch((error: { responseCode?: number }) => {
          refused = error;
        });
    }
    expect(refused?.responseCode).toBe(451);
  });
});
