import { appMessages } from '../app/messages';
import { adminMessages } from '../features/admin/messages';
import { authMessages } from '../features/auth/messages';
import { inboxMessages } from '../features/inbox/messages';
import { reportsMessages } from '../features/reports/messages';
import { searchMessages } from '../features/search/messages';
import { settingsMessages } from '../features/settings/messages';
import { ticketsMessages } from '../features/tickets/messages';

/**
 * The catalog: every string a user reads, by key. Each feature keeps its own section (its
 * `messages.ts`); a translation is another catalog of the same shape.
 */
const en = {
  ...appMessages,
  ...authMessages,
  ...inboxMessages,
  ...ticketsMessages,
  ...searchMessages,
  ...reportsMessages,
  ...settingsMessages,
  ...adminMessages,
};

export type MessageKey = keyof typeof en;

/** A catalog string, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}
