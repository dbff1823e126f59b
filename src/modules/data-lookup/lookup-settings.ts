import type { FilterPreset } from '../sites/widget-settings';

/**
 * The data-lookup settings of a site (DESIGN section 7): where the owner's database is, which
 * table holds the visitors' accounts, the record search and the keyword rules. Every table and
 * column here was checked against the owner database's catalog when the settings were saved.
 */

/** The owner databases the service can read. */
export type Driver = 'postgres' | 'mysql';
export const DRIVERS: readonly Driver[] = ['postgres', 'mysql'];

/** The URL schemes of each driver (MariaDB's own `mariadb://` too: the same server protocol). */
export const URL_SCHEMES: Record<Driver, string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
};

export interface AccountSettings {
  table: string;
  key_column: string;
  lookup_columns: string[];
  email_column: string | null;
  name_column: string | null;
}

export interface FilterRecordSettings {
  enabled: boolean;
  button_label: string;
  table: string;
  account_column: string;
  filters: Partial<Record<FilterPreset, string>>;
  columns: string[];
  limit: number;
  empty_reply: string;
  login_required_reply: string;
}

export interface RuleAction {
  id: string;
  label: string;
  reply: string;
}

export interface LookupRule {
  id: string;
  label: string;
  keywords: string[];
  table: string;
  account_column: string;
  columns: string[];
  order_by: string | null;
  direction: 'asc' | 'desc';
  page_size: number;
  /** The column naming a row for row actions; the first column unless set. */
  row_key: string;
  actions: RuleAction[];
}

export interface DataLookupSettings {
  enabled: boolean;
  connection: { driver: Driver; url: string };
  account: AccountSettings;
  require_otp: boolean;
  filter_record: FilterRecordSettings | null;
  rules: LookupRule[];
}

/**
 * Names the account source a login was made against: a login stays valid only while the site
 * still reads accounts from the same table and key column.
 */
export const accountSource = (account: AccountSettings): string =>
  `${account.table}#${account.key_column}`;

/** The rule a visitor message asks for: the first whose keyword (a whole word) or label it holds. */
export function matchRule(rules: LookupRule[], message: string): LookupRule | undefined {
  const text = message.toLowerCase();
  return rules.find(
    (rule) =>
      text.trim() === rule.label.toLowerCase() ||
      rule.keywords.some((keyword) => wholeWord(keyword.toLowerCase()).test(text)),
  );
}

const wholeWord = (keyword: string): RegExp =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])${keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'u',
  );
