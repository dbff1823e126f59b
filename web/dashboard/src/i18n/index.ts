import { appMessages } from '../app/messages';
import { errorMessages } from '../app/error-messages';
import { appointmentsMessages } from '../features/appointments/messages';
import { adminMessages } from '../features/admin/messages';
import { authMessages } from '../features/auth/messages';
import { inboxMessages } from '../features/inbox/messages';
import { kbMessages } from '../features/kb/messages';
import { reportsMessages } from '../features/reports/messages';
import { searchMessages } from '../features/search/messages';
import { answerBotMessages } from '../features/settings/answer-bot/messages';
import { auditMessages } from '../features/settings/security/audit-messages';
import { emailSettingsMessages } from '../features/settings/email/messages';
import { settingsFieldMessages } from '../features/settings/kit/field-messages';
import { settingsMessages } from '../features/settings/messages';
import { apiKeysSettingsMessages } from '../features/settings/api-keys/messages';
import { appointmentsSettingsMessages } from '../features/settings/appointments/messages';
import { automationSettingsMessages } from '../features/settings/automation/messages';
import { dataLookupSettingsMessages } from '../features/settings/data-lookup/messages';
import { notificationSettingsMessages } from '../features/settings/notifications/messages';
import { organizationSettingsMessages } from '../features/settings/organization/messages';
import { securitySettingsMessages } from '../features/settings/security/messages';
import { sitesSettingsMessages } from '../features/settings/sites/messages';
import { teamSettingsMessages } from '../features/settings/team/messages';
import { webhooksSettingsMessages } from '../features/settings/webhooks/messages';
import { ticketsMessages } from '../features/tickets/messages';

/**
 * The catalog: every string a user reads, by key. Each feature keeps its own section (its
 * `messages.ts`); a translation is another catalog of the same shape.
 */
const en = {
  ...appMessages,
  ...errorMessages,
  ...authMessages,
  ...inboxMessages,
  ...ticketsMessages,
  ...appointmentsMessages,
  ...searchMessages,
  ...reportsMessages,
  ...settingsMessages,
  ...apiKeysSettingsMessages,
  ...appointmentsSettingsMessages,
  ...automationSettingsMessages,
  ...dataLookupSettingsMessages,
  ...notificationSettingsMessages,
  ...organizationSettingsMessages,
  ...securitySettingsMessages,
  ...sitesSettingsMessages,
  ...teamSettingsMessages,
  ...webhooksSettingsMessages,
  ...settingsFieldMessages,
  ...emailSettingsMessages,
  ...auditMessages,
  ...answerBotMessages,
  ...adminMessages,
  ...kbMessages,
};

export type MessageKey = keyof typeof en;

/** A catalog string, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

/** Whether the catalog has `key` (for keys built from a field's name, with a fallback). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}
