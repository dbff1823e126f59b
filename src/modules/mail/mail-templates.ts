import { type MailBody, type MailBrand, type RenderedMail, renderMail } from './mail-layout';
import { ACCOUNT_MAIL, AGENT_MAIL, directionOf, mailLanguage, mailStrings } from './mail-strings';

/** What an agent is told of by mail (DESIGN section 9), each switchable per agent. */
export type AgentNotificationKind =
  | 'new_conversation'
  | 'conversation_assigned'
  | 'visitor_reply'
  | 'missed_chat'
  | 'ticket_assigned'
  | 'customer_reply';
export const AGENT_NOTIFICATION_KINDS: readonly AgentNotificationKind[] = [
  'new_conversation',
  'conversation_assigned',
  'visitor_reply',
  'missed_chat',
  'ticket_assigned',
  'customer_reply',
];

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
  | {
      kind: 'transcript';
      name: string | null;
      /** Every message of the conversation, oldest first; `author` null is the visitor. */
      messages: { author: string | null; at: string; text: string }[];
      unsubscribeUrl: string;
    }
  | {
      kind: 'ticket_acknowledgement';
      /**
       * The ticket number only: an acknowledgement goes to whatever `From` a stranger wrote, so it
       * carries no word of theirs (no name, no subject) that would make us their spam relay.
       */
      ticketNumber: string;
    }
  | {
      kind: 'ticket_reply';
      name: string | null;
      ticketNumber: string;
      subject: string;
      /** Agent-written comments, oldest first. */
      messages: { author: string; text: string }[];
    }
  | {
      kind: 'appointment_confirmation' | 'appointment_cancellation';
      name: string | null;
      /** The other party: the site for the visitor, the visitor for an agent. */
      with: string;
      /** The local date and time with the site's zone, in the recipient's language. */
      when: string;
    }
  | {
      kind: 'agent_notification';
      name: string;
      /** The conversation's visitor, or the ticket's number and subject. */
      about:
        | { type: 'conversation'; visitor: string | null }
        | { type: 'ticket'; ticketNumber: string; subject: string };
      /** What happened, oldest first; `text` is what the visitor or customer wrote, if anything. */
      events: { kind: AgentNotificationKind; author: string | null; text: string | null }[];
      /** The conversation or ticket in the dashboard, and the notification settings. */
      url: string;
      settingsUrl: string;
    }
  | {
      kind: 'team_invitation';
      /** The organization the recipient is invited to, and who invited them. */
      organization: string;
      inviter: string;
      url: string;
      days: number;
    }
  | { kind: 'password_reset'; name: string | null; url: string; minutes: number }
  | { kind: 'email_verification'; name: string | null; url: string };

export type MailKind = MailTemplate['kind'];
export const MAIL_KINDS: MailKind[] = [
  'login_code',
  'test',
  'conversation_reply',
  'transcript',
  'ticket_acknowledgement',
  'ticket_reply',
  'appointment_confirmation',
  'appointment_cancellation',
  'agent_notification',
  'team_invitation',
  'password_reset',
  'email_verification',
];

/** Mails to agents about their account: in English, the one language agents have for now. */
function accountMail(
  template: Extract<
    MailTemplate,
    { kind: 'team_invitation' | 'password_reset' | 'email_verification' }
  >,
  brand: MailBrand,
): MailBody {
  const a = ACCOUNT_MAIL;
  switch (template.kind) {
    case 'team_invitation':
      return {
        subject: a.invitationSubject(template.organization),
        blocks: [
          { type: 'paragraph', text: a.invitationIntro(template.inviter, template.organization) },
          { type: 'button', label: a.invitationAccept, url: template.url },
          { type: 'paragraph', text: a.invitationValidity(template.days) },
          { type: 'paragraph', text: a.ignore },
        ],
        footer: [`${a.linkFallback}: ${template.url}`],
      };
    case 'password_reset':
      return {
        subject: a.resetSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: template.name ? `Hello ${template.name},` : 'Hello,' },
          { type: 'paragraph', text: a.resetIntro },
          { type: 'button', label: a.resetButton, url: template.url },
          { type: 'paragraph', text: a.resetValidity(template.minutes) },
          { type: 'paragraph', text: a.ignore },
        ],
        footer: [`${a.linkFallback}: ${template.url}`],
      };
    case 'email_verification':
      return {
        subject: a.verifySubject(brand.name),
        blocks: [
          { type: 'paragraph', text: template.name ? `Hello ${template.name},` : 'Hello,' },
          { type: 'paragraph', text: a.verifyIntro },
          { type: 'button', label: a.verifyButton, url: template.url },
          { type: 'paragraph', text: a.ignore },
        ],
        footer: [`${a.linkFallback}: ${template.url}`],
      };
  }
}

/** An agent's notification: in English, the one language agents have for now. */
function agentNotification(
  template: Extract<MailTemplate, { kind: 'agent_notification' }>,
  brand: MailBrand,
): MailBody {
  const a = AGENT_MAIL;
  const about = template.about;
  return {
    subject:
      about.type === 'ticket'
        ? `[#${about.ticketNumber}] ${about.subject}`
        : a.conversationSubject(brand.name, about.visitor),
    blocks: [
      { type: 'paragraph', text: a.hello(template.name) },
      ...template.events.flatMap((event) => [
        { type: 'paragraph' as const, text: a.events[event.kind] },
        ...(event.text
          ? [{ type: 'message' as const, author: event.author ?? a.visitor, text: event.text }]
          : []),
      ]),
      { type: 'paragraph', text: about.type === 'ticket' ? a.answerTicket : a.answerConversation },
      { type: 'button', label: a.open, url: template.url },
    ],
    footer: [`${a.why}: ${template.settingsUrl}`],
  };
}

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
    case 'transcript':
      return {
        subject: t.transcriptSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.transcriptIntro(brand.name) },
          ...template.messages.map((message) => ({
            type: 'message' as const,
            author: `${message.author ?? t.visitorAuthor} · ${message.at}`,
            text: message.text,
          })),
          { type: 'paragraph', text: t.transcriptAnswer },
        ],
        footer: [t.transcriptWhy(brand.name), `${t.unsubscribe}: ${template.unsubscribeUrl}`],
      };
    case 'ticket_acknowledgement':
      return {
        subject: `[#${template.ticketNumber}] ${brand.name}`,
        blocks: [
          { type: 'paragraph', text: t.hello(null) },
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
    case 'appointment_confirmation':
      return {
        subject: t.appointmentSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.appointmentConfirmed(template.with, template.when) },
          { type: 'paragraph', text: t.appointmentCalendar },
        ],
      };
    case 'appointment_cancellation':
      return {
        subject: t.appointmentCancelledSubject(brand.name),
        blocks: [
          { type: 'paragraph', text: t.hello(template.name) },
          { type: 'paragraph', text: t.appointmentCancelled(template.with, template.when) },
        ],
      };
    case 'agent_notification':
      return agentNotification(template, brand);
    case 'team_invitation':
    case 'password_reset':
    case 'email_verification':
      return accountMail(template, brand);
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
