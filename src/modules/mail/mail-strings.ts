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
