import { en, type Catalog, type MessageKey } from './en';

export type { MessageKey };

/** The widget's languages: English is built in, the others load as small chunks when chosen. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
const RTL: readonly string[] = ['ar'];

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalog }>> = {
  de: () => import('./de'),
  fr: () => import('./fr'),
  es: () => import('./es'),
  pt: () => import('./pt'),
  ar: () => import('./ar'),
};

/** The first supported language among the wishes (`de-AT` counts as `de`), else English. */
export function pickLanguage(wishes: readonly (string | null | undefined)[]): Language {
  for (const wish of wishes) {
    const base = wish?.toLowerCase().split(/[-_]/)[0];
    const found = LANGUAGES.find((lang) => lang === base);
    if (found) return found;
  }
  return 'en';
}

export const isRtl = (lang: string): boolean => RTL.includes(lang);

let catalog: Catalog = en;
let current: Language = 'en';

export async function loadLanguage(lang: Language): Promise<void> {
  catalog = lang === 'en' ? en : (await loaders[lang]()).default;
  current = lang;
}

export const language = (): Language => current;

/** A string of the catalog with its `{name}` placeholders filled. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return format(catalog[key] ?? en[key], values);
}

export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
