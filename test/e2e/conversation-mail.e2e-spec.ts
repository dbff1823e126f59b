import { simpleParser, type ParsedMail } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { connect, type TestSocket } from '../utils/sockets';
import { settled } from '../utils/database';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
}

/** Every reply handled: its mail job done and what it sent received (or nothing sent). */
const MAIL_QUEUES = ['conversation-mail', 'outgoing-mail'];
/** A header's value as written (unfolded), not as mailparser interprets it. */
const header = (mail: ParsedMail, name: string) =>
  (mail.headerLines.find((line) => line.key === name)?.line ?? '')
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/^[^:]+:\s*/, '');

/**
 * Conversations by email, outgoing (DESIGN section 9): agent replies the visitor did not see are
 * mailed after CONVERSATION_EMAIL_DELAY_SECONDS (2 here), grouped, threaded, answerable by a
 * reply token, with a one-click unsubscribe; a visitor whose widget is connected gets no mail.
 */
describe('conversations by email (outgoing)', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  /** A visitor who left `email` and wrote once; answers the session. */
  const visitorWhoWrote = async (email: string, locale?: string): Promise<Session> => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, locale })
        .expect(200)
    ).body as Session;
    await request(app.url)
      .post('/api/widget/profile')
      .set(bearer(session.session_token))
      .send({ name: 'Ada', email })
      .expect(200);
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body: 'Do you ship to Norway?' })
      .expect(201);
    return session;
  };
  const reply = (conversationId: number, body: string) =>
    request(app.url)
      .post(`/api/agent/conversations/${conversationId}/messages`)
      .set(bearer(org.token))
      .send({ body })
      .expect(201);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: 'reply.acme.example',
      CONVERSATION_EMAIL_DELAY_SECONDS: '2',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('mails the replies the visitor did not see, grouped in one threaded, answerable mail', async () => {
    const session = await visitorWhoWrote('ada@example.com');
    await reply(session.conversation_id, 'Yes, we do.');
    await reply(session.conversation_id, 'Shipping takes <b>3 days</b> & costs 5 €.');

    const first = await simpleParser((await smtp.next('ada@example.com')).raw);
    expect(first.subject).toBe('New reply from Acme');
    expect(first.text).toContain('Olivia Owner:\n  Yes, we do.');
    expect(first.text).toContain('Shipping takes <b>3 days</b> & costs 5 €.');
    expect(first.html).toContain('Shipping takes &#60;b&#62;3 days&#60;/b&#62; &#38; costs 5 €.');
    expect(first.html).toContain(`/demo?widget_key=${org.site.widget_key}`);
    const replyTo = first.replyTo?.value[0].address ?? '';
    expect(replyTo).toMatch(/^reply\+[a-z2-7]{32}@reply\.acme\.example$/);
    expect(first.messageId).toMatch(/@reply\.acme\.example>$/);
    const unsubscribe =
      /<(https:\/\/chat\.acme\.example\/api\/email\/unsubscribe\/[a-z2-7]{32})>/.exec(
        header(first, 'list-unsubscribe'),
      );
    expect(unsubscribe).not.toBeNull();
    expect(header(first, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The subject holds no token; the tokens are stored hashed only.
    expect(first.subject).not.toContain(replyTo.slice(6, 38));
    const stored = await db.query(
      `SELECT count(*)::int AS n FROM mail_tokens WHERE encode(token_hash, 'escape') LIKE $1`,
      [`%${replyTo.slice(6, 38)}%`],
    );
    expect(stored.rows[0].n).toBe(0);
    const log = await db.query(
      `SELECT kind, conversation_id::int AS conversation_id, message_id FROM mail_log
       WHERE recipient = 'ada@example.com'`,
    );
    expect(log.rows).toEqual([
      {
        kind: 'conversation_reply',
        conversation_id: session.conversation_id,
        message_id: first.messageId,
      },
    ]);

    // Two replies, one mail: nothing else arrives.
    await settled(db, MAIL_QUEUES);
    expect(smtp.mails.filter((mail) => mail.to.includes('ada@example.com'))).toHaveLength(1);

    // A later reply is a second mail in the same thread.
    await reply(session.conversation_id, 'Anything else?');
    const second = await simpleParser((await smtp.next('ada@example.com')).raw);
    expect(second.inReplyTo).toBe(first.messageId);
    expect(second.references).toContain(first.messageId);
    expect(second.text).toContain('Anything else?');
    expect(second.text).not.toContain('Yes, we do.');
  });

  it('sends nothing while a widget socket of the visitor is connected, or after the visitor read it', async () => {
    const live = await visitorWhoWrote('live@example.com');
    sockets.push(await connect(suite.direct, '/widget', live.session_token));
    await reply(live.conversation_id, 'Seen live');

    const reader = await visitorWhoWrote('reader@example.com');
    const sent = await reply(reader.conversation_id, 'Read in time');
    await request(app.url)
      .post('/api/widget/read')
      .set(bearer(reader.session_token))
      .send({
        conversation_id: reader.conversation_id,
        message_id: (sent.body as { data: { id: number } }).data.id,
      })
      .expect(200);

    await settled(db, MAIL_QUEUES);
    expect(smtp.mails.filter((mail) => mail.to.includes('live@example.com'))).toHaveLength(0);
    expect(smtp.mails.filter((mail) => mail.to.includes('reader@example.com'))).toHaveLength(0);
  });

  it('turns a visitor’s conversation mails off with the one-click link, and mails in their language', async () => {
    const session = await visitorWhoWrote('hans@example.com', 'de-DE');
    await reply(session.conversation_id, 'Ja.');
    const mail = await simpleParser((await smtp.next('hans@example.com')).raw);
    expect(mail.subject).toBe('Neue Antwort von Acme');
    const link = /<(https:\/\/chat\.acme\.example)(\/api\/email\/unsubscribe\/[a-z2-7]{32})>/.exec(
      header(mail, 'list-unsubscribe'),
    )!;

    const page = await request(app.url).get(link[2]).expect(200);
    expect(page.text).toContain(`<form method="post" action="${link[2]}/confirm">`);
    // The page's button answers a page a person can read, not the one-click route's JSON.
    const done = await request(app.url).post(`${link[2]}/confirm`).type('form').expect(200);
    expect(done.headers['content-type']).toContain('text/html');
    expect(done.text).toContain('you will no longer receive mails');
    await request(app.url)
      .post(link[2])
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    await request(app.url)
      .post('/api/email/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
      .expect(404);
    await request(app.url).post('/api/email/unsubscribe/nope').expect(404);

    await reply(session.conversation_id, 'Noch etwas?');
    await settled(db, MAIL_QUEUES);
    expect(smtp.mails.filter((m) => m.to.includes('hans@example.com'))).toHaveLength(1);
  });
});
