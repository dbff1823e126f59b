/**
 * A site's public help center (DESIGN section 10): off until an owner or admin turns it on; the
 * locales it shows (the widget's six), the one `/help/<widget_key>/` opens, and its title (the
 * site's name when null).
 */
export const HELP_CENTER_LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'ar'] as const;
export type HelpCenterLocale = (typeof HELP_CENTER_LOCALES)[number];

export interface HelpCenterSettings {
  enabled: boolean;
  title: string | null;
  locales: HelpCenterLocale[];
  default_locale: HelpCenterLocale;
}

export function defaultHelpCenter(): HelpCenterSettings {
  return { enabled: false, title: null, locales: ['en'], default_locale: 'en' };
}

/** Stored settings over the defaults. */
export function helpCenterWithDefaults(
  stored: Partial<HelpCenterSettings> | null | undefined,
): HelpCenterSettings {
  return { ...defaultHelpCenter(), ...(stored ?? {}) };
}
