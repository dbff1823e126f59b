/**
 * The sentences of the mails, per language (the widget's languages). A language not here falls
 * back to English. Placeholders are filled by the templates, never from HTML.
 */
export const MAIL_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'ar'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export interface MailStrings {
  hello: (name: string | null) => string;
  loginCodeSubject: (site: string) => string;
  loginCodeIntro: (code: string) => string;
  loginCodeValidity: (minutes: number) => string;
  loginCodeIgnore: string;
  testSubject: (site: string) => string;
  testBody: string;
  replySubject: (site: string) => string;
  replyIntro: (site: string) => string;
  replyAnswer: string;
  replyOpenChat: string;
  replyWhy: (site: string) => string;
  unsubscribe: string;
  ticketReceived: (number: string) => string;
  ticketAnswerToAdd: string;
  ticketNewAnswer: string;
  appointmentSubject: (site: string) => string;
  /** `who`: the site for the visitor, the visitor for the agent; `when`: local date, time, zone. */
  appointmentConfirmed: (who: string, when: string) => string;
  appointmentCalendar: string;
  appointmentCancelledSubject: (site: string) => string;
  appointmentCancelled: (who: string, when: string) => string;
  transcriptSubject: (site: string) => string;
  transcriptIntro: (site: string) => string;
  transcriptAnswer: string;
  transcriptWhy: (site: string) => string;
  visitorAuthor: string;
}

const en: MailStrings = {
  hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
  loginCodeSubject: (site) => `Your login code for ${site}`,
  loginCodeIntro: (code) => `Your login code is ${code}.`,
  loginCodeValidity: (minutes) => `It is valid for ${minutes} minutes and can be used once.`,
  loginCodeIgnore: 'If you did not ask for it, ignore this mail.',
  testSubject: (site) => `Test mail from ${site}`,
  testBody: 'This is a test mail: outgoing mail works.',
  replySubject: (site) => `New reply from ${site}`,
  replyIntro: (site) => `You have a new reply from ${site}:`,
  replyAnswer: 'You can answer this mail directly, or go back to the chat.',
  replyOpenChat: 'Open the chat',
  replyWhy: (site) => `You receive this mail because you left your address in a chat with ${site}.`,
  unsubscribe: 'Stop these mails',
  ticketReceived: (number) => `We received your request. Its number is ${number}.`,
  ticketAnswerToAdd: 'Answer this mail to add to it.',
  ticketNewAnswer: 'There is a new answer to your request:',
  appointmentSubject: (site) => `Your appointment with ${site}`,
  appointmentConfirmed: (who, when) => `Your appointment with ${who} is booked for ${when}.`,
  appointmentCalendar: 'The invitation attached adds it to your calendar.',
  appointmentCancelledSubject: (site) => `Appointment with ${site} cancelled`,
  appointmentCancelled: (who, when) => `Your appointment with ${who} on ${when} is cancelled.`,
  transcriptSubject: (site) => `Your conversation with ${site}`,
  transcriptIntro: (site) => `Here is your conversation with ${site}:`,
  transcriptAnswer: 'You can answer this mail to continue the conversation.',
  transcriptWhy: (site) =>
    `You receive this mail because a transcript of your chat with ${site} was asked for.`,
  visitorAuthor: 'You',
};

const de: MailStrings = {
  hello: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
  loginCodeSubject: (site) => `Ihr Anmeldecode für ${site}`,
  loginCodeIntro: (code) => `Ihr Anmeldecode ist ${code}.`,
  loginCodeValidity: (minutes) =>
    `Er ist ${minutes} Minuten gültig und kann einmal verwendet werden.`,
  loginCodeIgnore: 'Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Mail.',
  testSubject: (site) => `Testmail von ${site}`,
  testBody: 'Dies ist eine Testmail: der Mailversand funktioniert.',
  replySubject: (site) => `Neue Antwort von ${site}`,
  replyIntro: (site) => `Sie haben eine neue Antwort von ${site}:`,
  replyAnswer: 'Sie können direkt auf diese Mail antworten oder zum Chat zurückkehren.',
  replyOpenChat: 'Chat öffnen',
  replyWhy: (site) =>
    `Sie erhalten diese Mail, weil Sie Ihre Adresse in einem Chat mit ${site} angegeben haben.`,
  unsubscribe: 'Diese Mails abbestellen',
  ticketReceived: (number) => `Wir haben Ihre Anfrage erhalten. Ihre Nummer ist ${number}.`,
  ticketAnswerToAdd: 'Antworten Sie auf diese Mail, um etwas hinzuzufügen.',
  ticketNewAnswer: 'Es gibt eine neue Antwort auf Ihre Anfrage:',
  appointmentSubject: (site) => `Ihr Termin mit ${site}`,
  appointmentConfirmed: (who, when) => `Ihr Termin mit ${who} ist gebucht für ${when}.`,
  appointmentCalendar: 'Mit der angehängten Einladung tragen Sie ihn in Ihren Kalender ein.',
  appointmentCancelledSubject: (site) => `Termin mit ${site} abgesagt`,
  appointmentCancelled: (who, when) => `Ihr Termin mit ${who} am ${when} ist abgesagt.`,
  transcriptSubject: (site) => `Ihr Gespräch mit ${site}`,
  transcriptIntro: (site) => `Hier ist Ihr Gespräch mit ${site}:`,
  transcriptAnswer: 'Sie können auf diese Mail antworten, um das Gespräch fortzusetzen.',
  transcriptWhy: (site) =>
    `Sie erhalten diese Mail, weil ein Verlauf Ihres Chats mit ${site} angefordert wurde.`,
  visitorAuthor: 'Sie',
};

const fr: MailStrings = {
  hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  loginCodeSubject: (site) => `Votre code de connexion pour ${site}`,
  loginCodeIntro: (code) => `Votre code de connexion est ${code}.`,
  loginCodeValidity: (minutes) =>
    `Il est valable ${minutes} minutes et ne peut servir qu'une fois.`,
  loginCodeIgnore: "Si vous ne l'avez pas demandé, ignorez ce message.",
  testSubject: (site) => `Message de test de ${site}`,
  testBody: "Ceci est un message de test : l'envoi de mails fonctionne.",
  replySubject: (site) => `Nouvelle réponse de ${site}`,
  replyIntro: (site) => `Vous avez une nouvelle réponse de ${site} :`,
  replyAnswer: 'Vous pouvez répondre directement à ce message ou revenir au chat.',
  replyOpenChat: 'Ouvrir le chat',
  replyWhy: (site) =>
    `Vous recevez ce message car vous avez laissé votre adresse dans un chat avec ${site}.`,
  unsubscribe: 'Ne plus recevoir ces messages',
  ticketReceived: (number) => `Nous avons bien reçu votre demande. Son numéro est ${number}.`,
  ticketAnswerToAdd: 'Répondez à ce message pour la compléter.',
  ticketNewAnswer: 'Votre demande a une nouvelle réponse :',
  appointmentSubject: (site) => `Votre rendez-vous avec ${site}`,
  appointmentConfirmed: (who, when) => `Votre rendez-vous avec ${who} est réservé pour le ${when}.`,
  appointmentCalendar: "L'invitation jointe l'ajoute à votre agenda.",
  appointmentCancelledSubject: (site) => `Rendez-vous avec ${site} annulé`,
  appointmentCancelled: (who, when) => `Votre rendez-vous avec ${who} du ${when} est annulé.`,
  transcriptSubject: (site) => `Votre conversation avec ${site}`,
  transcriptIntro: (site) => `Voici votre conversation avec ${site} :`,
  transcriptAnswer: 'Vous pouvez répondre à ce message pour poursuivre la conversation.',
  transcriptWhy: (site) =>
    `Vous recevez ce message parce qu'une copie de votre chat avec ${site} a été demandée.`,
  visitorAuthor: 'Vous',
};

const es: MailStrings = {
  hello: (name) => (name ? `Hola ${name}:` : 'Hola:'),
  loginCodeSubject: (site) => `Tu código de acceso para ${site}`,
  loginCodeIntro: (code) => `Tu código de acceso es ${code}.`,
  loginCodeValidity: (minutes) =>
    `Es válido durante ${minutes} minutos y solo se puede usar una vez.`,
  loginCodeIgnore: 'Si no lo has pedido, ignora este correo.',
  testSubject: (site) => `Correo de prueba de ${site}`,
  testBody: 'Este es un correo de prueba: el envío funciona.',
  replySubject: (site) => `Nueva respuesta de ${site}`,
  replyIntro: (site) => `Tienes una nueva respuesta de ${site}:`,
  replyAnswer: 'Puedes responder directamente a este correo o volver al chat.',
  replyOpenChat: 'Abrir el chat',
  replyWhy: (site) => `Recibes este correo porque dejaste tu dirección en un chat con ${site}.`,
  unsubscribe: 'Dejar de recibir estos correos',
  ticketReceived: (number) => `Hemos recibido tu solicitud. Su número es ${number}.`,
  ticketAnswerToAdd: 'Responde a este correo para añadir algo.',
  ticketNewAnswer: 'Hay una nueva respuesta a tu solicitud:',
  appointmentSubject: (site) => `Tu cita con ${site}`,
  appointmentConfirmed: (who, when) => `Tu cita con ${who} está reservada para el ${when}.`,
  appointmentCalendar: 'La invitación adjunta la añade a tu calendario.',
  appointmentCancelledSubject: (site) => `Cita con ${site} cancelada`,
  appointmentCancelled: (who, when) => `Tu cita con ${who} del ${when} está cancelada.`,
  transcriptSubject: (site) => `Su conversación con ${site}`,
  transcriptIntro: (site) => `Esta es su conversación con ${site}:`,
  transcriptAnswer: 'Puede responder a este correo para continuar la conversación.',
  transcriptWhy: (site) => `Recibe este correo porque se pidió una copia de su chat con ${site}.`,
  visitorAuthor: 'Usted',
};

const pt: MailStrings = {
  hello: (name) => (name ? `Olá ${name},` : 'Olá,'),
  loginCodeSubject: (site) => `O seu código de acesso para ${site}`,
  loginCodeIntro: (code) => `O seu código de acesso é ${code}.`,
  loginCodeValidity: (minutes) =>
    `É válido durante ${minutes} minutos e só pode ser usado uma vez.`,
  loginCodeIgnore: 'Se não o pediu, ignore este e-mail.',
  testSubject: (site) => `E-mail de teste de ${site}`,
  testBody: 'Este é um e-mail de teste: o envio funciona.',
  replySubject: (site) => `Nova resposta de ${site}`,
  replyIntro: (site) => `Tem uma nova resposta de ${site}:`,
  replyAnswer: 'Pode responder diretamente a este e-mail ou voltar ao chat.',
  replyOpenChat: 'Abrir o chat',
  replyWhy: (site) => `Recebe este e-mail porque deixou o seu endereço num chat com ${site}.`,
  unsubscribe: 'Deixar de receber estes e-mails',
  ticketReceived: (number) => `Recebemos o seu pedido. O número é ${number}.`,
  ticketAnswerToAdd: 'Responda a este e-mail para acrescentar algo.',
  ticketNewAnswer: 'Há uma nova resposta ao seu pedido:',
  appointmentSubject: (site) => `A sua marcação com ${site}`,
  appointmentConfirmed: (who, when) => `A sua marcação com ${who} está confirmada para ${when}.`,
  appointmentCalendar: 'O convite em anexo adiciona-a ao seu calendário.',
  appointmentCancelledSubject: (site) => `Marcação com ${site} cancelada`,
  appointmentCancelled: (who, when) => `A sua marcação com ${who} de ${when} foi cancelada.`,
  transcriptSubject: (site) => `A sua conversa com ${site}`,
  transcriptIntro: (site) => `Aqui está a sua conversa com ${site}:`,
  transcriptAnswer: 'Pode responder a este e-mail para continuar a conversa.',
  transcriptWhy: (site) =>
    `Recebe este e-mail porque foi pedida uma cópia do seu chat com ${site}.`,
  visitorAuthor: 'Você',
};

const ar: MailStrings = {
  hello: (name) => (name ? `مرحبًا ${name}،` : 'مرحبًا،'),
  loginCodeSubject: (site) => `رمز الدخول إلى ${site}`,
  loginCodeIntro: (code) => `رمز الدخول الخاص بك هو ${code}.`,
  loginCodeValidity: (minutes) => `صالح لمدة ${minutes} دقائق ويُستخدم مرة واحدة.`,
  loginCodeIgnore: 'إذا لم تطلبه، فتجاهل هذه الرسالة.',
  testSubject: (site) => `رسالة اختبار من ${site}`,
  testBody: 'هذه رسالة اختبار: البريد الصادر يعمل.',
  replySubject: (site) => `رد جديد من ${site}`,
  replyIntro: (site) => `لديك رد جديد من ${site}:`,
  replyAnswer: 'يمكنك الرد على هذه الرسالة مباشرة أو العودة إلى المحادثة.',
  replyOpenChat: 'فتح المحادثة',
  replyWhy: (site) => `تصلك هذه الرسالة لأنك تركت عنوانك في محادثة مع ${site}.`,
  unsubscribe: 'إيقاف هذه الرسائل',
  ticketReceived: (number) => `تلقينا طلبك. رقمه ${number}.`,
  ticketAnswerToAdd: 'رد على هذه الرسالة لإضافة شيء إليه.',
  ticketNewAnswer: 'هناك رد جديد على طلبك:',
  appointmentSubject: (site) => `موعدك مع ${site}`,
  appointmentConfirmed: (who, when) => `تم حجز موعدك مع ${who} في ${when}.`,
  appointmentCalendar: 'الدعوة المرفقة تضيفه إلى تقويمك.',
  appointmentCancelledSubject: (site) => `أُلغي الموعد مع ${site}`,
  appointmentCancelled: (who, when) => `أُلغي موعدك مع ${who} في ${when}.`,
  transcriptSubject: (site) => `محادثتك مع ${site}`,
  transcriptIntro: (site) => `إليك محادثتك مع ${site}:`,
  transcriptAnswer: 'يمكنك الرد على هذه الرسالة لمتابعة المحادثة.',
  transcriptWhy: (site) => `تصلك هذه الرسالة لأنه طُلبت نسخة من محادثتك مع ${site}.`,
  visitorAuthor: 'أنت',
};

const CATALOG: Record<MailLanguage, MailStrings> = { en, de, fr, es, pt, ar };

/** `de-AT`, `DE` or `de_at` → `de`; anything unknown → `en`. */
export function mailLanguage(language: string | null | undefined): MailLanguage {
  const primary = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (MAIL_LANGUAGES as readonly string[]).includes(primary) ? (primary as MailLanguage) : 'en';
}

export function mailStrings(language: MailLanguage): MailStrings {
  return CATALOG[language];
}

export const directionOf = (language: MailLanguage): 'ltr' | 'rtl' =>
  language === 'ar' ? 'rtl' : 'ltr';

/**
 * The sentences of the agents' notification mails. Agents have no language setting yet, so
 * these are English only (the dashboard's other languages will come with one).
 */
export const AGENT_MAIL = {
  hello: (name: string) => `Hello ${name},`,
  conversationSubject: (site: string, visitor: string | null) =>
    `[${site}] Conversation with ${visitor ?? 'a visitor'}`,
  events: {
    new_conversation: 'A visitor started a conversation while no agent was online:',
    conversation_assigned: 'This conversation was assigned to you.',
    visitor_reply: 'The visitor wrote in your conversation:',
    missed_chat: 'Nobody answered this chat in time: it is now missed.',
    ticket_assigned: 'This ticket was assigned to you.',
    customer_reply: 'The customer answered on your ticket:',
  },
  visitor: 'Visitor',
  answerConversation: 'Answer this mail to reply in the conversation as yourself.',
  answerTicket: 'Answer this mail to add a public comment as yourself.',
  open: 'Open in the dashboard',
  why: 'You receive these mails as an agent of this team; choose which ones in the dashboard',
} as const;

/** Invitations, password resets and address checks, to agents (English, as AGENT_MAIL). */
export const ACCOUNT_MAIL = {
  invitationSubject: (organization: string) => `You are invited to join ${organization}`,
  invitationIntro: (inviter: string, organization: string) =>
    `${inviter} invites you to answer chats and tickets with the ${organization} team.`,
  invitationAccept: 'Accept the invitation',
  invitationValidity: (days: number) =>
    `The link works once and for ${days} days. If you already have an account, accept with your own password.`,
  resetSubject: (site: string) => `Reset your ${site} password`,
  resetIntro: 'Someone asked to reset the password of your account. Choose a new one here:',
  resetButton: 'Choose a new password',
  resetValidity: (minutes: number) =>
    `The link works once and for ${minutes} minutes. Every session of your account ends when the password changes.`,
  verifySubject: (site: string) => `Confirm your address for ${site}`,
  verifyIntro: 'Confirm that this address is yours to finish setting up your account:',
  verifyButton: 'Confirm my address',
  ignore: 'If you did not expect this mail, ignore it.',
  linkFallback: 'Or open this link',
} as const;
