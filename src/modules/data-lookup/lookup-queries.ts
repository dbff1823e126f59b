import { quoteColumn, quoteTable } from './identifiers';
import type { Bind, Dialect } from './sql-dialect';
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

/**
 * One statement being written for a dialect: its bound values, in the order their placeholders
 * appear. The columns of the queried table are qualified (`src.x`): the text outputs share the
 * columns' names, and an unqualified name in ORDER BY would sort by the text instead of the value.
 */
class Statement {
  readonly values: unknown[] = [];
  constructor(readonly dialect: Dialect) {}

  readonly bind: Bind = (value) => {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  };

  col(column: string): string {
    return `src.${quoteColumn(this.dialect, column)}`;
  }

  from(table: string): string {
    return `${quoteTable(this.dialect, table)} AS src`;
  }

  /** Every value as text (so a row action can name a row exactly as it was shown). */
  selectText(columns: string[]): string {
    return columns.map((column) => this.textAs(this.col(column), column)).join(', ');
  }

  textAs(expression: string, alias: string): string {
    return `${this.dialect.text(expression)} AS ${quoteColumn(this.dialect, alias)}`;
  }

  query(text: string): OwnerQuery {
    return { text, values: this.values };
  }
}

/** Mobile numbers are compared without spaces, dots, dashes and brackets. */
export const normalizeMobile = (value: string): string => value.replace(/[\s().-]/g, '');

/**
 * The accounts an identifier names: an email (it has `@`) matches a lookup column ignoring case,
 * anything else matches with spaces, dots, dashes and brackets removed on both sides. Two rows
 * are fetched so an identifier naming several accounts can be refused.
 */
export function accountByIdentifier(
  dialect: Dialect,
  account: AccountSettings,
  identifier: string,
): OwnerQuery {
  const q = new Statement(dialect);
  const columns = accountColumns(q, account);
  const email = identifier.includes('@');
  const value = email ? identifier : normalizeMobile(identifier);
  const conditions = account.lookup_columns.map((column) => {
    const text = dialect.text(q.col(column));
    return email
      ? dialect.textEqualsIgnoringCase(text, value, q.bind)
      : dialect.textEquals(dialect.withoutPunctuation(text), value, q.bind);
  });
  return q.query(`SELECT ${columns} FROM ${q.from(account.table)}
      WHERE ${conditions.join(' OR ')} LIMIT 2`);
}

/** The account a login names, re-read by its key. */
export function accountByKey(dialect: Dialect, account: AccountSettings, key: string): OwnerQuery {
  const q = new Statement(dialect);
  const columns = accountColumns(q, account);
  return q.query(`SELECT ${columns} FROM ${q.from(account.table)}
      WHERE ${dialect.equals(q.col(account.key_column), key, q.bind)} LIMIT 1`);
}

function accountColumns(q: Statement, account: AccountSettings): string {
  const optional = (column: string | null, alias: string) =>
    q.textAs(column ? q.col(column) : 'NULL', alias);
  return [
    q.textAs(q.col(account.key_column), 'key'),
    optional(account.email_column, 'email'),
    optional(account.name_column, 'name'),
  ].join(', ');
}

/**
 * The account's records matching the filters, newest first when a date column is mapped. The
 * account condition is always the first one, so no filter can widen the search beyond it.
 */
export function recordSearch(
  dialect: Dialect,
  settings: FilterRecordSettings,
  accountKey: string,
  filters: RecordFilters,
): OwnerQuery {
  const q = new Statement(dialect);
  const columns = q.selectText(settings.columns);
  const conditions = [dialect.equals(q.col(settings.account_column), accountKey, q.bind)];
  for (const preset of ['txn', 'utr', 'mobile'] as const) {
    const column = settings.filters[preset];
    const value = filters[preset];
    if (column && value !== undefined)
      conditions.push(dialect.equals(q.col(column), value, q.bind));
  }
  const status = settings.filters.status;
  if (status && filters.status !== undefined) {
    conditions.push(
      dialect.textEqualsIgnoringCase(dialect.text(q.col(status)), filters.status, q.bind),
    );
  }
  const date = settings.filters.date;
  if (date && filters.date_from !== undefined) {
    conditions.push(`${q.col(date)} >= ${dialect.dayStart(filters.date_from, q.bind)}`);
  }
  if (date && filters.date_to !== undefined) {
    conditions.push(`${q.col(date)} < ${dialect.nextDayStart(filters.date_to, q.bind)}`);
  }
  const order = date ? ` ORDER BY ${dialect.orderNullsLast(q.col(date), 'DESC')}` : '';
  return q.query(`SELECT ${columns} FROM ${q.from(settings.table)}
      WHERE ${conditions.join(' AND ')}${order} LIMIT ${dialect.count(settings.limit, q.bind)}`);
}

/** One page of a rule's rows for the account, and one row more to tell whether more follow. */
export function rulePage(
  dialect: Dialect,
  rule: LookupRule,
  accountKey: string,
  page: number,
): OwnerQuery {
  const q = new Statement(dialect);
  const columns = q.selectText(rule.columns);
  const direction = rule.direction === 'asc' ? 'ASC' : 'DESC';
  const order = [
    ...(rule.order_by ? [dialect.orderNullsLast(q.col(rule.order_by), direction)] : []),
    // The shown columns break ties, so pages do not overlap.
    ...rule.columns.map((column) => dialect.text(q.col(column))),
  ];
  return q.query(`SELECT ${columns} FROM ${q.from(rule.table)}
      WHERE ${dialect.equals(q.col(rule.account_column), accountKey, q.bind)}
      ORDER BY ${order.join(', ')}
      LIMIT ${dialect.count(rule.page_size + 1, q.bind)}
      OFFSET ${dialect.count((page - 1) * rule.page_size, q.bind)}`);
}

/** The account's row of a rule whose row key has this value (a row action re-reads its row). */
export function ruleRow(
  dialect: Dialect,
  rule: LookupRule,
  accountKey: string,
  rowKey: string,
): OwnerQuery {
  const q = new Statement(dialect);
  const columns = q.selectText(rule.columns);
  return q.query(`SELECT ${columns} FROM ${q.from(rule.table)}
      WHERE ${dialect.equals(q.col(rule.account_column), accountKey, q.bind)}
        AND ${dialect.equals(q.col(rule.row_key), rowKey, q.bind)}
      LIMIT 1`);
}
