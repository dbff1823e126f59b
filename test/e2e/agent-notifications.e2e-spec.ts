import { addToError } from '../utils/error-context';
import { simpleParser } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { type CapturedMail, mailSays, type SmtpCapture, startSmtp } from '../utils/smtp';
import { settled } from '../utils/database';
import { startTestApp, type TestApp } from '../utils/test-app';

const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';
const DIGEST_SECONDS = 2;
/** What a notification sets going: its job, and the mail it sends. */
const MAIL_QUEUES = ['agent-notifications', 'outgoing-mail'];

type Member = { id: number; email: string; token: string };

/**
 * Agent notifications by email (DESIGN section 9): per-agent choices (each kind on by default),
 * mails driven by the domain events (a new conversation while nobody is online, an assignment,
 * the visitor's answer, a missed chat, a ticket assigned, the customer's answer), grouped per
 * agent and conversation within AGENT_NOTIFY_DIGEST_SECONDS, only to agents not online, and
 * answerable by mail: the answer is written as that agent.
 */
describe('agent notifications by email', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let acme: Registered;
  let admin: Member;
  let agent: Member;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const parse = async (mail: CapturedMail) => simpleParser(mail.raw);
  const saying = (text: string) => (mail: CapturedMail) => mailSays(mail, text);
  const post = (raw: string) =>
    request(app.url)
      .post('/api/inbound/email')
      .set({ ...bearer(INBOUND_TOKEN), 'Content-Type': 'message/rfc822' })
      .send(Buffer.from(raw));
  const reply = (o: { from: string; to: string; text: string }) =>
    [
      `From: <${o.from}>`,
      `To: ${o.to}`,
      'Subject: Re: notification',
      `Message-ID: <n-${Date.now()}-${Math.random().toString(36).slice(2)}@mail.example.com>`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      o.text,
      '',
      '> the notification, quoted',
      '',
    ].join('\r\n');
  /**
   * The next mail to `address` that `match` accepts; a timeout also says what the app logged of
   * notifications, mails, jobs and errors (a wait that failed under CI load came without it).
   */
  const nextMail = (
    address: string,
    match: (mail: CapturedMail) => boolean = () => true,
    ms?: number,
  ) =>
    smtp.next(address, match, ms).catch((error: Error) => {
      const lines = app.logs
        .filter((entry) => /notif|mail|job|queue|error|fail/i.test(JSON.stringify(entry)))
        .slice(-40)
        .map((entry) => JSON.stringify(entry));
      addToError(
        error,
        `The app's last lines about notifications, mail and jobs:\n${lines.join('\n')}`,
      );
      throw error;
    });
  /** The mails to `address` that `match` accepts, received after `since` (an index). */
  const mailsTo = (address: string, match: (mail: CapturedMail) => boolean, since = 0) =>
    smtp.mails.slice(since).filter((mail) => mail.to.includes(address) && match(mail));

  /** A visitor who wrote `body`: a started conversation. */
  async function visitorWrites(body: string, name = 'Vera Visitor') {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: acme.site.widget_key })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    await request(app.url)
      .post('/api/widget/profile')
      .set(bearer(session.session_token))
      .send({ name, email: `${name.split(' ')[0].toLowerCase()}@visitor.example` })
      .expect(200);
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body })
      .expect(201);
    const say = (text: string) =>
      request(app.url)
        .post('/api/widget/messages')
        .set(bearer(session.session_token))
        .send({ body: text })
        .expect(201);
    return { conversationId: session.conversation_id, say };
  }
  const presence = (token: string, status: 'online' | 'offline') =>
    request(app.url).patch('/api/agent/presence').set(bearer(token)).send({ status }).expect(200);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: DOMAIN,
      INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
      AGENT_NOTIFY_DIGEST_SECONDS: String(DIGEST_SECONDS),
      MISSED_CHAT_SECONDS: '3',
    }));
    acme = await registerOrganization(app.url, 'Acme');
    admin = await addMember(app.url, acme.token, 'admin');
    agent = await addMember(app.url, acme.token, 'agent');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('keeps each agent’s choices, every kind on by default', async () => {
    const all = {
      new_conversation: true,
      conversation_assigned: true,
      visitor_reply: true,
      missed_chat: true,
      ticket_assigned: true,
      customer_reply: true,
    };
    const initial = await request(app.url)
      .get('/api/agent/me/notifications')
      .set(bearer(agent.token))
      .expect(200);
    expect(initial.body.data).toEqual(all);
    const changed = await request(app.url)
      .patch('/api/agent/me/notifications')
      .set(bearer(agent.token))
      .send({ new_conversation: false })
      .expect(200);
    expect(changed.body.data).toEqual({ ...all, new_conversation: false });
    const again = await request(app.url)
      .patch('/api/agent/me/notifications')
      .set(bearer(agent.token))
      .send({ missed_chat: false })
      .expect(200);
    expect(again.body.data).toEqual({ ...all, new_conversation: false, missed_chat: false });
    // Per agent: the admin's are untouched.
    const admins = await request(app.url)
      .get('/api/agent/me/notifications')
      .set(bearer(admin.token))
      .expect(200);
    expect(admins.body.data).toEqual(all);
    await request(app.url)
      .patch('/api/agent/me/notifications')
      .set(bearer(agent.token))
      .send({ visitor_reply: 'yes' })
      .expect(422);
    await request(app.url).get('/api/agent/me/notifications').expect(401);
    // Back on for the tests below (missed chats stay off for the agent).
    await request(app.url)
      .patch('/api/agent/me/notifications')
      .set(bearer(agent.token))
      .send({ new_conversation: true })
      .expect(200);
  });

  it('mails every agent of a new conversation while nobody is online, and nobody once someone is', async () => {
    const { conversationId } = await visitorWrites('Is anyone there? My order is stuck.');
    for (const member of [acme.user.email, admin.email, agent.email]) {
      const mail = await parse(await nextMail(member, saying('Is anyone there?')));
      expect(mail.subject).toBe('[Acme] Conversation with Vera Visitor');
      expect(mail.text).toContain('A visitor started a conversation while no agent was online:');
      expect(mail.text).toContain(`https://chat.acme.example/inbox/${conversationId}`);
      expect(mail.replyTo!.value[0].address).toMatch(
        new RegExp(`^reply\\+[a-z2-7]{32}@${DOMAIN}$`),
      );
      expect(mail.html).toContain('Is anyone there?');
    }

    await presence(admin.token, 'online');
    const since = smtp.mails.length;
    await visitorWrites('Second visitor, while the admin is online.', 'Sam');
    await settled(db, MAIL_QUEUES);
    expect(mailsTo(agent.email, saying('Second visitor'), since)).toEqual([]);
    expect(mailsTo(acme.user.email, saying('Second visitor'), since)).toEqual([]);
    await presence(admin.token, 'offline');
  });

  it('tells the assignee, groups a burst of answers into one mail, and not while online', async () => {
    const chat = await visitorWrites('Hello, I need a refund.', 'Rita');
    await request(app.url)
      .post(`/api/agent/conversations/${chat.conversationId}/assign`)
      .set(bearer(acme.token))
      .send({ agent_id: agent.id })
      .expect(200);
    const assigned = await parse(
      await nextMail(agent.email, saying('This conversation was assigned to you.'), 30_000),
    );
    expect(assigned.subject).toBe('[Acme] Conversation with Rita');
    const since = smtp.mails.length;
    for (const text of ['First answer', 'Second answer', 'Third answer']) await chat.say(text);
    const grouped = await parse(
      await nextMail(agent.email, saying('Third answer'), (DIGEST_SECONDS + 8) * 1000),
    );
    for (const text of ['First answer', 'Second answer', 'Third answer']) {
      expect(grouped.text).toContain(text);
    }
    expect(grouped.text).toContain('The visitor wrote in your conversation:');
    // Threaded with the earlier mails about the conversation.
    expect(grouped.inReplyTo).toBe(assigned.messageId);
    await settled(db, MAIL_QUEUES);
    expect(mailsTo(agent.email, saying('answer'), since)).toHaveLength(1);
    expect(mailsTo(acme.user.email, saying('First answer'), since)).toEqual([]);

    // Online (the dashboard open): not mailed.
    await presence(agent.token, 'online');
    const online = smtp.mails.length;
    await chat.say('Are you there now?');
    await settled(db, MAIL_QUEUES);
    expect(mailsTo(agent.email, saying('Are you there now?'), online)).toEqual([]);
    await presence(agent.token, 'offline');

    // The agent answers the notification by mail: a reply in the conversation, as the agent.
    const replyTo = grouped.replyTo!.value[0].address!;
    await post(reply({ from: agent.email, to: replyTo, text: 'Refund is on its way.' })).expect(
      200,
    );
    await post(
      reply({ from: 'someone@else.example', to: replyTo, text: 'Forwarded reply.' }),
    ).expect(200);
    const messages = await request(app.url)
      .get(`/api/agent/conversations/${chat.conversationId}`)
      .set(bearer(acme.token))
      .expect(200);
    const fromAgent = (
      messages.body.data.messages as {
        sender_type: string;
        sender_id: number | null;
        body: string;
        sender_mismatch: boolean;
      }[]
    ).filter((message) => message.sender_type === 'agent');
    expect(fromAgent.map((m) => [m.sender_id, m.body, m.sender_mismatch])).toEqual([
      [agent.id, 'Refund is on its way.', false],
      [agent.id, 'Forwarded reply.', true],
    ]);
  });

  it('mails a missed chat to the owners and admins when nobody holds it', async () => {
    const since = smtp.mails.length;
    const { conversationId } = await visitorWrites('Nobody will answer this one.', 'Milo');
    const missedSentence = 'Nobody answered this chat in time: it is now missed.';
    for (const member of [acme.user.email, admin.email]) {
      const mail = await parse(
        await nextMail(
          member,
          (m) => mailSays(m, missedSentence) && mailSays(m, `/inbox/${conversationId}`),
          20_000,
        ),
      );
      expect(mail.subject).toBe('[Acme] Conversation with Milo');
    }
    const status = await db.query(`SELECT status FROM conversations WHERE id = $1`, [
      conversationId,
    ]);
    expect(status.rows[0].status).toBe('missed');
    // The agent holds no such chat (and turned missed-chat mails off besides).
    expect(mailsTo(agent.email, saying('it is now missed'), since)).toEqual([]);
  });

  it('tells the assignee of a ticket and of the customer’s answer, and takes their answer by mail', async () => {
    const inbox = (
      await request(app.url)
        .post('/api/agent/email-inboxes')
        .set(bearer(acme.token))
        .send({ name: 'Support', address: 'support@acme.example', acknowledge: true })
        .expect(201)
    ).body.data as { forwarding_address: string };
    const opened = await post(
      [
        'From: Carol Customer <carol@example.com>',
        `To: ${inbox.forwarding_address}`,
        'Subject: Broken lamp',
        `Message-ID: <lamp-${Date.now()}@mail.example.com>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The lamp arrived broken.',
        '',
      ].join('\r\n'),
    ).expect(200);
    const ticketId = opened.body.data.ticket_id as number;
    const ack = await parse(await nextMail('carol@example.com'));
    await request(app.url)
      .patch(`/api/agent/tickets/${ticketId}`)
      .set(bearer(acme.token))
      .send({ assigned_agent_id: agent.id })
      .expect(200);
    const assigned = await parse(
      await nextMail(agent.email, saying('This ticket was assigned to you.'), 15_000),
    );
    expect(assigned.subject).toMatch(/^\[#TKT-\d{4}-\d{6}\] Broken lamp$/);
    expect(assigned.text).toContain(`https://chat.acme.example/tickets/${ticketId}`);

    await post(
      reply({ from: 'carol@example.com', to: ack.replyTo!.value[0].address!, text: 'Any news?' }),
    ).expect(200);
    const answered = await parse(
      await nextMail(agent.email, saying('Any news?'), (DIGEST_SECONDS + 8) * 1000),
    );
    expect(answered.text).toContain('The customer answered on your ticket:');
    expect(answered.text).toContain('Carol Customer');

    // The agent answers that mail: a public comment by the agent, mailed to the customer.
    await post(
      reply({
        from: agent.email,
        to: answered.replyTo!.value[0].address!,
        text: 'A new lamp ships today.',
      }),
    ).expect(200);
    const comments = await db.query(
      `SELECT author_type, author_id::int AS author_id, body, is_internal FROM ticket_comments
       WHERE ticket_id = $1 ORDER BY id`,
      [ticketId],
    );
    expect(comments.rows).toEqual([
      { author_type: 'customer', author_id: null, body: 'Any news?', is_internal: false },
      {
        author_type: 'agent',
        author_id: agent.id,
        body: 'A new lamp ships today.',
        is_internal: false,
      },
    ]);
    const toCustomer = await parse(
      await nextMail('carol@example.com', saying('A new lamp ships today.'), 15_000),
    );
    expect(toCustomer.subject).toMatch(/Broken lamp$/);
  });
});
