import type { SiteLookup } from '../data-lookup/data-lookup.service';
import { escapeHtml } from '../data-lookup/table-markup';
import { mailLanguage, type MailLanguage } from '../mail/mail-strings';

/** A quick reply the widget shows under a bot answer. */
export interface FollowUpReply {
  type: 'button' | 'filter_record';
  label: string;
  emoji: string;
}

/** What a logged-in visitor can do next: search records, and one button per keyword rule. */
export function followUps(lookup: SiteLookup): FollowUpReply[] {
  const replies: FollowUpReply[] = [];
  const record = lookup.settings.filter_record;
  if (record?.enabled)
    replies.push({ type: 'filter_record', label: record.button_label, emoji: '🔎' });
  for (const rule of lookup.settings.rules) {
    replies.push({ type: 'button', label: rule.label, emoji: '📋' });
  }
  return replies;
}

/** The bot's replies during a visitor's account login, in one of the widget's languages. */
export interface LoginReplies {
  loggedIn: (name: string) => string;
  noAccount: string;
  codeSent: string;
  noCode: string;
  wrongCode: (left: number) => string;
  burned: string;
  trustedNoAccount: string;
}

const CATALOG: Record<MailLanguage, LoginReplies> = {
  en: {
    loggedIn: (name) => `You are logged in as ${escapeHtml(name)}.`,
    noAccount: 'We could not find an account with that email address or mobile number.',
    codeSent: `If an account matches, we have sent a 6-digit code to its email address. Enter it here to log in; it is valid for 10 minutes.`,
    noCode: 'There is no valid code. Please log in again to get a new one.',
    wrongCode: (left) =>
      `That code is not right. You have ${left} ${left === 1 ? 'try' : 'tries'} left.`,
    burned:
      'That code is not right, and it has now been blocked. Please log in again to get a new one.',
    trustedNoAccount: 'No account matches this email address.',
  },
  de: {
    loggedIn: (name) => `Sie sind als ${escapeHtml(name)} angemeldet.`,
    noAccount: 'Wir konnten kein Konto mit dieser E-Mail-Adresse oder Mobilnummer finden.',
    codeSent:
      'Falls ein Konto passt, haben wir einen 6-stelligen Code an seine E-Mail-Adresse gesendet. Geben Sie ihn hier ein, um sich anzumelden; er ist 10 Minuten lang gültig.',
    noCode:
      'Es gibt keinen gültigen Code. Bitte melden Sie sich erneut an, um einen neuen zu erhalten.',
    wrongCode: (left) =>
      `Dieser Code ist nicht richtig. Sie haben noch ${left} ${left === 1 ? 'Versuch' : 'Versuche'}.`,
    burned:
      'Dieser Code ist nicht richtig und wurde jetzt gesperrt. Bitte melden Sie sich erneut an, um einen neuen zu erhalten.',
    trustedNoAccount: 'Zu dieser E-Mail-Adresse gibt es kein Konto.',
  },
  fr: {
    loggedIn: (name) => `Vous êtes connecté en tant que ${escapeHtml(name)}.`,
    noAccount: "Nous n'avons trouvé aucun compte avec cette adresse e-mail ou ce numéro de mobile.",
    codeSent:
      'Si un compte correspond, nous avons envoyé un code à 6 chiffres à son adresse e-mail. Saisissez-le ici pour vous connecter ; il est valable 10 minutes.',
    noCode: "Il n'y a pas de code valide. Veuillez vous reconnecter pour en recevoir un nouveau.",
    wrongCode: (left) =>
      `Ce code n'est pas correct. Il vous reste ${left} ${left === 1 ? 'essai' : 'essais'}.`,
    burned:
      "Ce code n'est pas correct et il est maintenant bloqué. Veuillez vous reconnecter pour en recevoir un nouveau.",
    trustedNoAccount: 'Aucun compte ne correspond à cette adresse e-mail.',
  },
  es: {
    loggedIn: (name) => `Has iniciado sesión como ${escapeHtml(name)}.`,
    noAccount:
      'No encontramos ninguna cuenta con esa dirección de correo electrónico o ese número de móvil.',
    codeSent:
      'Si una cuenta coincide, hemos enviado un código de 6 dígitos a su dirección de correo electrónico. Introdúcelo aquí para iniciar sesión; es válido durante 10 minutos.',
    noCode: 'No hay ningún código válido. Vuelve a iniciar sesión para recibir uno nuevo.',
    wrongCode: (left) =>
      `Ese código no es correcto. Te ${left === 1 ? 'queda' : 'quedan'} ${left} ${left === 1 ? 'intento' : 'intentos'}.`,
    burned:
      'Ese código no es correcto y ahora está bloqueado. Vuelve a iniciar sesión para recibir uno nuevo.',
    trustedNoAccount: 'Ninguna cuenta coincide con esta dirección de correo electrónico.',
  },
  pt: {
    loggedIn: (name) => `Você entrou como ${escapeHtml(name)}.`,
    noAccount: 'Não encontramos nenhuma conta com esse endereço de e-mail ou número de celular.',
    codeSent:
      'Se uma conta corresponder, enviamos um código de 6 dígitos para o endereço de e-mail dela. Digite-o aqui para entrar; ele é válido por 10 minutos.',
    noCode: 'Não há nenhum código válido. Entre novamente para receber um novo.',
    wrongCode: (left) =>
      `Esse código não está correto. Você tem mais ${left} ${left === 1 ? 'tentativa' : 'tentativas'}.`,
    burned:
      'Esse código não está correto e agora foi bloqueado. Entre novamente para receber um novo.',
    trustedNoAccount: 'Nenhuma conta corresponde a este endereço de e-mail.',
  },
  ar: {
    loggedIn: (name) => `لقد سجّلت الدخول باسم ${escapeHtml(name)}.`,
    noAccount: 'لم نعثر على حساب بعنوان البريد الإلكتروني أو رقم الجوال هذا.',
    codeSent:
      'إذا كان هناك حساب مطابق، فقد أرسلنا رمزًا من 6 أرقام إلى عنوان بريده الإلكتروني. أدخله هنا لتسجيل الدخول؛ وهو صالح لمدة 10 دقائق.',
    noCode: 'لا يوجد رمز صالح. يُرجى تسجيل الدخول مرة أخرى للحصول على رمز جديد.',
    wrongCode: (left) => `هذا الرمز غير صحيح. تبقّى لديك ${left} من المحاولات.`,
    burned: 'هذا الرمز غير صحيح، وقد تم حظره الآن. يُرجى تسجيل الدخول مرة أخرى للحصول على رمز جديد.',
    trustedNoAccount: 'لا يوجد حساب يطابق عنوان البريد الإلكتروني هذا.',
  },
};

/**
 * The replies in the visitor's language (`de-AT` → German), English for any other, as the login
 * code's mail picks its language (`mailLanguage`).
 */
export function loginReplies(language: string | null | undefined): LoginReplies {
  return CATALOG[mailLanguage(language)];
}
