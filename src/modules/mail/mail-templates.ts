import { type MailBody, type MailBrand, type RenderedMail, renderMail } from './mail-layout';
import { directionOf, mailLanguage, mailStrings } from './mail-strings';

/** What each kind of mail says, before it is put in the site's language and look. */
export type MailTemplate =
  | { kind: 'login_code'; name: string | null; code: string; minutes: number }
  | { kind: 'test'; name: string | null }
  | {
      kind: 'conversation_reply';
      name: string | null;
      /** The replies the visitor has not seen, oldest first; `text` is agent-written. */
      messages: { author: string; text: string }[];
      chatUrl: string;
      unsubscribeUrl: string;
    }
  | { kind: 'ticket_acknowledgement'; name: string | null; ticketNumber: string; subject: string }
  | {
      kind: 'ticket_reply';
      name: string | null;
      ticketNumber: string;
      subject: string;
      /** Agent-written comments, oldest first. */
      messages: { author: string; text: string }[];
    };

export type MailKind = MailTemplate['kind'];
export const MAIL_KINDS: MailKind[] = [
  'login_code',
  'test',
  'conversation_reply',
  'ticket_acknowledgement',
  'ticket_reply',
];

function body(template: MailTemplate, brand: MailBrand, language: string | null): MailBody {
  const t = mailStrings(mailLanguage(language));
  switch (template.kind) {
    case 'login_code':
      return {
        // Never the code in the subject: subjects end up in notifications and logs.
        subject: t.loginCodeSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.loginCodeIntro(template.code) },
          { type: 'code', text: template.code },
          { type: 'paragraph', text: t.loginCodeValidity(template.minutes) },
          { type: 'paragraph', text: t.loginCodeIgnore },
        ],
      };
    case 'test':
      return {
        subject: t.testSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.testBody },
        ],
      };
    case 'conversation_reply':
      return {
        subject: t.replySubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.replyIntro(brand.name) },
          ...template.messages.map((message) => ({ type: 'message' as const, ...message })),
          { type: 'paragraph', text: t.replyAnswer },
          { type: 'button', label: t.replyOpenChat, url: template.chatUrl },
        ],
        footer: [t.replyWhy(brand.name), `${t.unsubscribe}: ${template.unsubscribeUrl}`],
      };
    case 'ticket_acknowledgement':
      return {
        subject: `[#${template.ticketNumber}] ${template.subject}`,
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.ticketReceived(template.ticketNumber) },
          { type: 'paragraph', text: t.ticketAnswerToAdd },
        ],
      };
    case 'ticket_reply':
      return {
        subject: `[#${template.ticketNumber}] ${template.subject}`,
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.ticketNewAnswer },
          ...template.messages.map((message) => ({ type: 'message' as const, ...message })),
          { type: 'paragraph', text: t.ticketAnswerToAdd },
        ],
      };
  }
}

/** The subject, text part and HTML part of a mail in `language` (else English). */
export function renderTemplate(
  template: MailTemplate,
  brand: MailBrand,
  language: string | null,
): RenderedMail {
  return renderMail(brand, body(template, brand, language), directionOf(mailLanguage(language)));
}
