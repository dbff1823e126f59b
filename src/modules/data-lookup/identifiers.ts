import type { Dialect } from './sql-dialect';

/**
 * SQL identifiers of the owner's database. Only plain names pass (letters, digits, underscores,
 * not starting with a digit, at most 63 characters; a table may be `schema.table`, for MySQL
 * `database.table`), and every one is quoted when a query is built (`"x"`, MySQL `` `x` ``), so
 * no identifier can carry SQL. Values never appear in query text: they are bound parameters.
 */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const isColumnName = (value: string): boolean => NAME.test(value);

export function isTableName(value: string): boolean {
  const parts = value.split('.');
  return parts.length <= 2 && parts.every((part) => NAME.test(part));
}

/** `"name"`; refuses anything the whitelist does not admit. */
export function quoteColumn(dialect: Dialect, name: string): string {
  if (!isColumnName(name)) throw new Error(`not a safe column name: ${name}`);
  return dialect.quote(name);
}

/** `"table"` or `"schema"."table"`. */
export function quoteTable(dialect: Dialect, name: string): string {
  if (!isTableName(name)) throw new Error(`not a safe table name: ${name}`);
  return name
    .split('.')
    .map((part) => dialect.quote(part))
    .join('.');
}

/** A table name split into its schema (undefined: the connection's current schema) and name. */
export function splitTable(name: string): { schema?: string; table: string } {
  const [first, second] = name.split('.');
  return second === undefined ? { table: first } : { schema: first, table: second };
}
