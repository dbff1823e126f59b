/** What the answer bot says, in the widget's six languages (the conversation's locale). */
export interface BotStrings {
  resolved: string;
  handoff: string;
  readMore: string;
  handedOff: string;
}

const STRINGS: Record<'en' | 'de' | 'fr' | 'es' | 'pt' | 'ar', BotStrings> = {
  en: {
    resolved: 'That helped',
    handoff: 'Talk to a person',
    readMore: 'Read more',
    handedOff: 'Thanks, I am passing you to our team. Someone will answer here shortly.',
  },
  de: {
    resolved: 'Das hat geholfen',
    handoff: 'Mit einem Menschen sprechen',
    readMore: 'Mehr lesen',
    handedOff: 'Danke, ich gebe an unser Team weiter. Jemand antwortet Ihnen hier in Kürze.',
  },
  fr: {
    resolved: 'Cela m’a aidé',
    handoff: 'Parler à une personne',
    readMore: 'En savoir plus',
    handedOff: 'Merci, je transmets à notre équipe. Quelqu’un vous répondra ici sous peu.',
  },
  es: {
    resolved: 'Me ha servido',
    handoff: 'Hablar con una persona',
    readMore: 'Leer más',
    handedOff: 'Gracias, le paso con nuestro equipo. Alguien le responderá aquí en breve.',
  },
  pt: {
    resolved: 'Isso ajudou',
    handoff: 'Falar com uma pessoa',
    readMore: 'Ler mais',
    handedOff: 'Obrigado, vou passar para a nossa equipa. Alguém responderá aqui em breve.',
  },
  ar: {
    resolved: 'هذا ساعدني',
    handoff: 'التحدث إلى شخص',
    readMore: 'اقرأ المزيد',
    handedOff: 'شكرًا، سأحوّلك إلى فريقنا. سيرد عليك أحدهم هنا قريبًا.',
  },
};

export function botStrings(locale: string | null | undefined): BotStrings {
  const language = (locale ?? 'en').split('-')[0].toLowerCase();
  return language in STRINGS ? STRINGS[language as keyof typeof STRINGS] : STRINGS.en;
}
