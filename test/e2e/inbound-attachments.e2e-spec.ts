import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Pool } from 'pg';
import request from 'supertest';
import { mailedThread } from '../factories/mail-thread';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, logged } from '../utils/app-process';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR-not-really-an-image'),
]);

let sequence = 0;

/** A real MIME mail (nodemailer's composer) with files. */
async function mimeMail(options: {
  from: string;
  to: string;
  text: string;
  attachments?: { filename: string; content: Buffer | string; contentType: string }[];
}): Promise<Buffer> {
  return new MailComposer({
    from: `Ada <${options.from}>`,
    to: options.to,
    subject: 'Re: your question',
    messageId: `<att-${Date.now()}-${++sequence}@mail.example.com>`,
    text: options.text,
    attachments: options.attachments,
  })
    .compile()
    .build();
}

/**
 * Incoming mail's files (DESIGN section 9): they become the message's attachments under the
 * upload rules (type, size); a refused file is a log line and never costs the mail; a ticket,
 * which carries no files, names them. A mail from another address than the one the reply
 * address was sent to is taken but flagged `sender_mismatch` where the agent reads it.
 */
describe('incoming mail: attachments and sender_mismatch', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let acme: Registered;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (raw: Buffer) =>
    request(app.url)
      .post('/api/inbound/email')
      .set({ ...bearer(INBOUND_TOKEN), 'Content-Type': 'message/rfc822' })
      .send(raw);

  const thread = (email: string) => mailedThread(app.url, acme, smtp, email);

  const lastVisitorMessage = async (conversationId: number) => {
    const res = await request(app.url)
      .get(`/api/agent/conversations/${conversationId}`)
      .set(bearer(acme.token))
      .expect(200);
    const messages = res.body.data.messages as {
      sender_type: string;
      body: string;
      sender_mismatch: boolean;
      attachments: { file_name: string; content_type: string; size: number; url: string }[];
    }[];
    return messages.filter((message) => message.sender_type === 'visitor').at(-1)!;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: DOMAIN,
      CONVERSATION_EMAIL_DELAY_SECONDS: '1',
      INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
      ATTACHMENT_MAX_BYTES: '4000',
    }));
    acme = await registerOrganization(app.url, 'Acme');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it("keeps an emailed answer's accepted files as attachments and logs the refused ones", async () => {
    const t = await thread('ada@example.com');
    const raw = await mimeMail({
      from: 'ada@example.com',
      to: t.replyTo,
      text: 'Here is the receipt.',
      attachments: [
        { filename: 'receipt.png', content: PNG, contentType: 'image/png' },
        { filename: 'notes.txt', content: 'paid on the 3rd', contentType: 'text/plain' },
        {
          filename: 'tool.exe',
          content: Buffer.from('MZ\0\0binary'),
          contentType: 'application/x-msdownload',
        },
        { filename: 'fake.png', content: 'not a png at all', contentType: 'image/png' },
        { filename: 'big.txt', content: 'x'.repeat(5000), contentType: 'text/plain' },
      ],
    });
    const res = await post(raw).expect(200);
    expect(res.body.data).toMatchObject({ status: 'processed', conversation_id: t.conversationId });

    const message = await lastVisitorMessage(t.conversationId);
    expect(message.body).toBe('Here is the receipt.');
    expect(message.sender_mismatch).toBe(false);
    expect(message.attachments.map((file) => [file.file_name, file.content_type])).toEqual([
      ['receipt.png', 'image/png'],
      ['notes.txt', 'text/plain'],
    ]);
    // The stored file is the one that was mailed.
    const download = await request(app.url)
      .get(new URL(message.attachments[0].url).pathname)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);

    for (const name of ['tool.exe', 'fake.png', 'big.txt']) {
      await logged(
        app,
        new RegExp(`attachment of incoming mail refused[^}]*${name.replace('.', '\\.')}`),
      );
    }
  });

  it('takes a mail with only a file, and one whose every file is refused still needs text', async () => {
    const t = await thread('grace@example.com');
    await post(
      await mimeMail({
        from: 'grace@example.com',
        to: t.replyTo,
        text: '',
        attachments: [{ filename: 'scan.png', content: PNG, contentType: 'image/png' }],
      }),
    ).expect(200);
    const message = await lastVisitorMessage(t.conversationId);
    expect(message.body).toBe('');
    expect(message.attachments.map((file) => file.file_name)).toEqual(['scan.png']);

    const refused = await post(
      await mimeMail({
        from: 'grace@example.com',
        to: t.replyTo,
        text: '',
        attachments: [
          { filename: 'x.exe', content: 'MZ', contentType: 'application/x-msdownload' },
        ],
      }),
    ).expect(422);
    expect(refused.body.error_code).toBe('validation_failed');
  });

  it('flags an answer from another address than the one mailed (conversation and ticket)', async () => {
    const t = await thread('carol@example.com');
    await post(
      await mimeMail({ from: 'mallory@example.net', to: t.replyTo, text: 'It is me, Carol.' }),
    ).expect(200);
    const message = await lastVisitorMessage(t.conversationId);
    expect(message).toMatchObject({ body: 'It is me, Carol.', sender_mismatch: true });
    const stored = await db.query(
      `SELECT sender_mismatch FROM inbound_mails WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1`,
      [t.conversationId],
    );
    expect(stored.rows[0].sender_mismatch).toBe(true);
    await logged(app, 'sender_mismatch');

    // A ticket by mail: the acknowledgement's reply address is bound to the customer.
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(acme.token))
        .send({ name: 'Support', address: 'support@acme.example' })
        .expect(201)
    ).body.data as { forwarding_address: string };
    const opened = await post(
      await mimeMail({
        from: 'dan@example.com',
        to: inbox.forwarding_address,
        text: 'My order is late.',
        attachments: [
          { filename: 'order.pdf', content: '%PDF-1.4 x', contentType: 'application/pdf' },
        ],
      }),
    ).expect(200);
    const ticketId = opened.body.data.ticket_id as number;
    const ack = await simpleParser((await smtp.next('dan@example.com')).raw);
    await post(
      await mimeMail({
        from: 'dan@example.com',
        to: ack.replyTo!.value[0].address!,
        text: 'Any news?',
      }),
    ).expect(200);
    await post(
      await mimeMail({
        from: 'someone@else.example',
        to: ack.replyTo!.value[0].address!,
        text: 'Me too.',
      }),
    ).expect(200);
    const ticket = await request(app.url)
      .get(`/api/agent/tickets/${ticketId}`)
      .set(bearer(acme.token))
      .expect(200);
    // Tickets carry no files: the description names the one that was not kept.
    expect(ticket.body.data.description).toBe(
      'My order is late.\n\n(Attachments not kept: order.pdf)',
    );
    expect(
      (
        ticket.body.data.comments as {
          body: string;
          author_type: string;
          sender_mismatch: boolean;
        }[]
      ).map((comment) => [comment.author_type, comment.body, comment.sender_mismatch]),
    ).toEqual([
      ['customer', 'Any news?', false],
      ['customer', 'Me too.', true],
    ]);
  });
});
