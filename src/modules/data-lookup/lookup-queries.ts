import { quoteColumn, quoteTable } from './identifiers';
import type { AccountSettings, FilterRecordSettings, LookupRule } from './lookup-settings';

/** A statement for the owner's database: text built from checked identifiers, values bound. */
export interface OwnerQuery {
  text: string;
  values: unknown[];
}

/** The record filters a visitor can send (spec: filter-records/search). */
export interface RecordFilters {
  txn?: string;
  utr?: string;
  status?: string;
  mobile?: string;
  date_from?: string;
  date_to?: string;
}

/** Every value as text (so a row action can name a row exactly as it was shown), one per column. */
const selectText = (columns: string[]): string =>
  columns.map((column) => `${col(column)}::text AS ${quoteColumn(column)}`).join(', ');

/**
 * A column of the queried table, qualified: the text outputs share the columns' names, and an
 * unqualified name in ORDER BY would sort by the text instead of the value.
 */
const col = (column: string): string => `src.${quoteColumn(column)}`;
const from = (table: string): string => `${quoteTable(table)} AS src`;

/** Mobile numbers are compared without spaces, dots, dashes and brackets. */
export const normalizeMobile = (value: string): string => value.replace(/[\s().-]/g, '');

/**
 * The accounts an identifier names: an email (it has `@`) matches a lookup column ignoring case,
 * anything else matches with spaces, dots, dashes and brackets removed on both sides. Two rows
 * are fetched so an identifier naming several accounts can be refused.
 */
export function accountByIdentifier(account: AccountSettings, identifier: string): OwnerQuery {
  const email = identifier.includes('@');
  const conditions = account.lookup_columns.map((column) =>
    email
      ? `lower(${col(column)}::text) = lower($1)`
      : `regexp_replace(${col(column)}::text, '[\\s().-]', '', 'g') = $1`,
  );
  return {
    text: `SELECT ${accountColumns(account)} FROM ${from(account.table)}
      WHERE ${conditions.join(' OR ')} LIMIT 2`,
    values: [email ? identifier : normalizeMobile(identifier)],
  };
}

/** The account a login names, re-read by its key. */
export function accountByKey(account: AccountSettings, key: string): OwnerQuery {
  return {
    text: `SELECT ${accountColumns(account)} FROM ${from(account.table)}
      WHERE ${col(account.key_column)} = $1 LIMIT 1`,
    values: [key],
  };
}

function accountColumns(account: AccountSettings): string {
  const optional = (column: string | null, alias: string) =>
    column ? `${col(column)}::text AS ${alias}` : `NULL::text AS ${alias}`;
  return [
    `${col(account.key_column)}::text AS key`,
    optional(account.email_column, 'email'),
    optional(account.name_column, 'name'),
  ].join(', ');
}

/**
 * The account's records matching the filters, newest first when a date column is mapped. The
 * account condition is always the first one, so no filter can widen the search beyond it.
 */
export function recordSearch(
  settings: FilterRecordSettings,
  accountKey: string,
  filters: RecordFilters,
): OwnerQuery {
  const values: unknown[] = [accountKey];
  const conditions = [`${col(settings.account_column)} = $1`];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  for (const preset of ['txn', 'utr', 'mobile'] as const) {
    const column = settings.filters[preset];
    const value = filters[preset];
    if (column && value !== undefined) conditions.push(`${col(column)} = ${bind(value)}`);
  }
  const status = settings.filters.status;
  if (status && filters.status !== undefined) {
    conditions.push(`lower(${col(status)}::text) = lower(${bind(filters.status)})`);
  }
  const date = settings.filters.date;
  if (date && filters.date_from !== undefined) {
    conditions.push(`${col(date)} >= ${bind(filters.date_from)}::date`);
  }
  if (date && filters.date_to !== undefined) {
    conditions.push(`${col(date)} < ${bind(filters.date_to)}::date + 1`);
  }
  const order = date ? ` ORDER BY ${col(date)} DESC NULLS LAST` : '';
  return {
    text: `SELECT ${selectText(settings.columns)} FROM ${from(settings.table)}
      WHERE ${conditions.join(' AND ')}${order} LIMIT ${bind(settings.limit)}`,
    values,
  };
}

/** One page of a rule's rows for the account, and one row more to tell whether more follow. */
export function rulePage(rule: LookupRule, accountKey: string, page: number): OwnerQuery {
  const direction = rule.direction === 'asc' ? 'ASC' : 'DESC';
  const order = [
    ...(rule.order_by ? [`${col(rule.order_by)} ${direction} NULLS LAST`] : []),
    // The shown columns break ties, so pages do not overlap.
    ...rule.columns.map((column) => `${col(column)}::text`),
  ];
  return {
    text: `SELECT ${selectText(rule.columns)} FROM ${from(rule.table)}
      WHERE ${col(rule.account_column)} = $1
      ORDER BY ${order.join(', ')} LIMIT $2 OFFSET $3`,
    values: [accountKey, rule.page_size + 1, (page - 1) * rule.page_size],
  };
}

/** The account's row of a rule whose row key has this value (a row action re-reads its row). */
export function ruleRow(rule: LookupRule, accountKey: string, rowKey: string): OwnerQuery {
  return {
    text: `SELECT ${selectText(rule.columns)} FROM ${from(rule.table)}
      WHERE ${col(rule.account_column)} = $1 AND ${col(rule.row_key)} = $2
      LIMIT 1`,
    values: [accountKey, rowKey],
  };
}
