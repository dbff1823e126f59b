import type { TimeRange, Weekday } from '../../common/time/working-hours';

/** The widget settings stored on a site, with the defaults a new site gets. */
export interface PreChatField {
  key: string;
  type: (typeof PRE_CHAT_FIELD_TYPES)[number];
  label: string;
  required: boolean;
  builtin: boolean;
}

export interface WidgetSettings {
  pre_chat_form: { enabled: boolean; delay_minutes: number; fields: PreChatField[] };
  visitor_account_login: { enabled: boolean; menu_label: string; logout_label: string };
  filter_record: { enabled: boolean; button_label: string };
  data_lookup: { enabled: boolean };
  appearance: WidgetAppearance;
  availability: WidgetAvailabilitySettings;
  offline: { mode: OfflineMode };
  transcripts: { on_close: boolean };
  /** Asked before the first message when enabled; the visitor's agreement is recorded. */
  consent: { enabled: boolean; text: string; privacy_url: string | null };
}

/**
 * When the site is staffed (DESIGN section 9): weekly hours in the site's time zone (null:
 * always), the away message (null: the widget's own words in the visitor's language) and how
 * soon a reply comes.
 */
export interface WidgetAvailabilitySettings {
  business_hours: Partial<Record<Weekday, TimeRange[]>> | null;
  away_message: string | null;
  reply_time: ReplyTime;
}

export const REPLY_TIMES = ['minutes', 'hours', 'day'] as const;
export type ReplyTime = (typeof REPLY_TIMES)[number];
/** With nobody there: keep chatting (`chat`), or the leave-a-message form that files a ticket. */
export const OFFLINE_MODES = ['chat', 'ticket_form'] as const;
export type OfflineMode = (typeof OFFLINE_MODES)[number];

/** How the widget looks on the site (DESIGN section 8): colour, side, greeting, launcher text. */
export interface WidgetAppearance {
  color: string;
  position: 'right' | 'left';
  greeting: string;
  launcher_label: string;
}

export const WIDGET_POSITIONS = ['right', 'left'] as const;

/**
 * The record search presets of `filter_record`, in the order the widget shows them (`date` is a
 * date range); the site's data-lookup settings say which columns they search.
 */
export const FILTER_PRESETS = ['txn', 'utr', 'status', 'mobile', 'date'] as const;
export type FilterPreset = (typeof FILTER_PRESETS)[number];

export const BUILTIN_FIELDS = ['name', 'email', 'phone'] as const;
/** The inputs a pre-chat form field may be. */
export const PRE_CHAT_FIELD_TYPES = [
  'text',
  'email',
  'tel',
  'textarea',
  'number',
  'select',
  'checkbox',
  'date',
] as const;

export function defaultWidgetSettings(): WidgetSettings {
  return {
    pre_chat_form: {
      enabled: false,
      delay_minutes: 0,
      fields: [
        { key: 'name', type: 'text', label: 'Name', required: true, builtin: true },
        { key: 'email', type: 'email', label: 'Email', required: true, builtin: true },
      ],
    },
    visitor_account_login: {
      enabled: false,
      menu_label: 'Log in to your account',
      logout_label: 'Log out',
    },
    filter_record: { enabled: false, button_label: 'Find a record' },
    data_lookup: { enabled: false },
    appearance: {
      color: '#2563eb',
      position: 'right',
      greeting: 'Hi! How can we help you today?',
      launcher_label: 'Chat with us',
    },
    availability: { business_hours: null, away_message: null, reply_time: 'hours' },
    offline: { mode: 'chat' },
    transcripts: { on_close: false },
    consent: {
      enabled: false,
      text: 'We store this chat and the details you give us to answer you.',
      privacy_url: null,
    },
  };
}

/** Stored settings over the defaults, section by section, so new keys get their default. */
export function withDefaults(
  stored: Partial<Record<keyof WidgetSettings, object>> | null | undefined,
): WidgetSettings {
  const defaults = defaultWidgetSettings();
  return {
    pre_chat_form: { ...defaults.pre_chat_form, ...(stored?.pre_chat_form ?? {}) },
    visitor_account_login: {
      ...defaults.visitor_account_login,
      ...(stored?.visitor_account_login ?? {}),
    },
    filter_record: { ...defaults.filter_record, ...(stored?.filter_record ?? {}) },
    data_lookup: { ...defaults.data_lookup, ...(stored?.data_lookup ?? {}) },
    appearance: { ...defaults.appearance, ...(stored?.appearance ?? {}) },
    availability: { ...defaults.availability, ...(stored?.availability ?? {}) },
    offline: { ...defaults.offline, ...(stored?.offline ?? {}) },
    transcripts: { ...defaults.transcripts, ...(stored?.transcripts ?? {}) },
    consent: { ...defaults.consent, ...(stored?.consent ?? {}) },
  };
}
