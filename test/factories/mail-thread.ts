import { simpleParser } from 'mailparser';
import request from 'supertest';
import type { SmtpCapture } from '../utils/smtp';
import type { Registered } from './identity';

/** A conversation whose visitor was mailed an agent's reply, and how to answer that mail. */
export interface MailThread {
  conversationId: number;
  visitorToken: string;
  /** The mail's `Reply-To`: `reply+<token>@MAIL_REPLY_DOMAIN`. */
  replyTo: string;
  messageId: string;
  visitorEmail: string;
}

/**
 * A visitor of `org` who left `email` and wrote "Do you ship to Norway?"; an agent answered
 * "Yes, we do.", and the conversation mail that answer sent (read from `smtp`).
 */
export async function mailedThread(
  baseUrl: string,
  org: Registered,
  smtp: SmtpCapture,
  email: string,
): Promise<MailThread> {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const session = (
    await request(baseUrl)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key })
      .expect(200)
  ).body as { session_token: string; conversation_id: number };
  await request(baseUrl)
    .post('/api/widget/profile')
    .set(bearer(session.session_token))
    .send({ name: 'Ada', email })
    .expect(200);
  await request(baseUrl)
    .post('/api/widget/messages')
    .set(bearer(session.session_token))
    .send({ body: 'Do you ship to Norway?' })
    .expect(201);
  await request(baseUrl)
    .post(`/api/agent/conversations/${session.conversation_id}/messages`)
    .set(bearer(org.token))
    .send({ body: 'Yes, we do.' })
    .expect(201);
  const mail = await simpleParser((await smtp.next(email)).raw);
  return {
    conversationId: session.conversation_id,
    visitorToken: session.session_token,
    replyTo: mail.replyTo!.value[0].address!,
    messageId: mail.messageId!,
    visitorEmail: email,
  };
}
