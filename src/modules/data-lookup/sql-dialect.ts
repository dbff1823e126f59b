import type { Driver } from './lookup-settings';

/** Adds a value to the statement's bound values; answers its placeholder. */
export type Bind = (value: unknown) => string;

/**
 * What the lookup queries write differently for each owner database. The query builders are
 * written once against this; every expression that takes a value gets it through `bind`, so
 * values never appear in query text (an integer the service chose itself, like a LIMIT, may).
 */
export interface Dialect {
  readonly driver: Driver;
  /** One plain name (already admitted by the identifier whitelist), quoted. */
  quote(name: string): string;
  /** The placeholder of the n-th bound value (1-based). */
  placeholder(position: number): string;
  /** The expression as text, as the database writes it (numbers, dates and times too). */
  text(expression: string): string;
  /**
   * A column equal to a value given as text, exactly: case and trailing spaces count, and text
   * that is not a number never equals a number column. An index on the column can still serve.
   */
  equals(column: string, value: string, bind: Bind): string;
  /** A text expression equal to a value, exactly (case and trailing spaces count). */
  textEquals(text: string, value: string, bind: Bind): string;
  /** A text expression equal to a value, ignoring case. */
  textEqualsIgnoringCase(text: string, value: string, bind: Bind): string;
  /** A text expression without spaces, dots, dashes and brackets (how mobiles are compared). */
  withoutPunctuation(text: string): string;
  /** An ORDER BY term sorting NULLs last in either direction. */
  orderNullsLast(expression: string, direction: 'ASC' | 'DESC'): string;
  /** The start of a day (`YYYY-MM-DD`) in the session's time zone, and of the next day. */
  dayStart(day: string, bind: Bind): string;
  nextDayStart(day: string, bind: Bind): string;
  /** A count for LIMIT or OFFSET. */
  count(value: number, bind: Bind): string;
}

export const POSTGRES: Dialect = {
  driver: 'postgres',
  quote: (name) => `"${name}"`,
  placeholder: (position) => `$${position}`,
  text: (expression) => `${expression}::text`,
  // PostgreSQL compares a text value with a number column as a number, and refuses text that is
  // not one (an error the reader turns into "matches nothing").
  equals: (column, value, bind) => `${column} = ${bind(value)}`,
  textEquals: (text, value, bind) => `${text} = ${bind(value)}`,
  textEqualsIgnoringCase: (text, value, bind) => `lower(${text}) = lower(${bind(value)})`,
  withoutPunctuation: (text) => `regexp_replace(${text}, '[\\s().-]', '', 'g')`,
  orderNullsLast: (expression, direction) => `${expression} ${direction} NULLS LAST`,
  dayStart: (day, bind) => `${bind(day)}::date`,
  nextDayStart: (day, bind) => `${bind(day)}::date + 1`,
  count: (value, bind) => bind(value),
};

/**
 * MySQL 8 and MariaDB 10.1 or later (REGEXP_REPLACE, a statement time limit). Their `=` needs care where
 * PostgreSQL's does not: text against a number column is compared as a number (`'abc' = 0` and
 * `'7x' = 7` are true), and the usual collations ignore case and trailing spaces. So values are
 * compared as binary text; a plain `=` before it keeps the column's index usable.
 */
export const MYSQL: Dialect = {
  driver: 'mysql',
  quote: (name) => `\`${name}\``,
  placeholder: () => '?',
  text: (expression) => `CAST(${expression} AS CHAR)`,
  equals: (column, value, bind) =>
    `(${column} = ${bind(value)} AND ${MYSQL.textEquals(MYSQL.text(column), value, bind)})`,
  textEquals: (text, value, bind) => `CAST(${text} AS BINARY) = ${bind(value)}`,
  textEqualsIgnoringCase: (text, value, bind) =>
    `CAST(LOWER(${text}) AS BINARY) = CAST(LOWER(${bind(value)}) AS BINARY)`,
  // POSIX class rather than `\s`: a backslash in a literal depends on the sql_mode.
  withoutPunctuation: (text) => `REGEXP_REPLACE(${text}, '[[:space:]().-]', '')`,
  orderNullsLast: (expression, direction) => `${expression} IS NULL, ${expression} ${direction}`,
  // An impossible day (2026-02-30) casts to NULL and so matches nothing.
  dayStart: (day, bind) => `CAST(${bind(day)} AS DATE)`,
  nextDayStart: (day, bind) => `DATE_ADD(CAST(${bind(day)} AS DATE), INTERVAL 1 DAY)`,
  // Written out: a bound LIMIT is refused by some MySQL versions' prepared statements.
  count: (value) => {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a count: ${value}`);
    return String(value);
  },
};

export const dialectOf = (driver: Driver): Dialect => (driver === 'mysql' ? MYSQL : POSTGRES);
