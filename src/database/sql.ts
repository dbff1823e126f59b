import type { Pool } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/** Anything that runs SQL: the DataSource or a transaction's EntityManager. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * The pg pool of a connected DataSource, given itself or its own manager. A statement outside a
 * transaction goes to it directly: TypeORM's `query()` makes a QueryRunner, broadcasts before and
 * after, times and wraps every statement, which on the busiest routes costs as much as the
 * driver's own work. Errors are wrapped in TypeORM's QueryFailedError all the same (the driver's
 * `code` and the rest copied). `driver.master` is TypeORM's, not public: pinned by
 * test/e2e/framework-overrides.e2e-spec.ts.
 */
function poolOf(executor: SqlExecutor): Pool | undefined {
  // The DataSource, or its own manager (a transaction's manager has a query runner).
  const source =
    executor instanceof DataSource
      ? executor
      : executor instanceof EntityManager && !executor.queryRunner
        ? executor.connection
        : undefined;
  if (!source?.isInitialized) return undefined;
  const master = (source.driver as { master?: Pool }).master;
  return typeof master?.query === 'function' ? master : undefined;
}

declare const rowType: unique symbol;

/**
 * A statement's text that also says what each of its rows is. Written with the `query` tag, so
 * that SafeQL (`npm run check`, eslint.config.mjs) checks the text against the migrated schema
 * and the row type against what PostgreSQL answers (with `handTyped`, the text only); a plain
 * string (SQL put together from pieces at run time) is one too, unchecked.
 */
export type Query<T> = string & { readonly [rowType]?: T };

/**
 * The tag of a statement checked against the schema: `query<Row>\`SELECT ...\``. Its text is
 * fixed (no `${}`: a piece of SQL spliced in would be checked as a parameter), parameters are
 * `$1`..`$n` as everywhere. Without a type argument the statement must return no rows.
 */
export function query<T = never>(text: TemplateStringsArray): Query<T> {
  return text[0];
}

/**
 * The tag of a statement whose text is checked against the schema (tables, columns, parameters,
 * syntax) but whose row type is written by hand: `handTyped<Row>\`SELECT ...\``. For the
 * statements where SafeQL cannot say the real type (a nullable CHECK-listed column, JSON it cannot
 * name, nullability it cannot prove; docs/decisions.md, "Issue 32: typed SQL"). Same text rules as
 * `query`.
 */
export function handTyped<T = never>(text: TemplateStringsArray): Query<T> {
  return text[0];
}

/**
 * Runs a statement and returns its rows. TypeORM answers UPDATE and DELETE on PostgreSQL with
 * `[rows, affectedCount]` instead of the rows; this evens that out so `RETURNING` reads the same
 * for every statement. `prepared` names a statement the driver prepares once per connection and
 * then only binds and executes (for fixed, frequent statements whose plan cannot go wrong).
 */
export async function sql<T>(
  executor: SqlExecutor,
  text: Query<T>,
  parameters: unknown[] = [],
  prepared?: string,
): Promise<T[]> {
  const pool = poolOf(executor);
  if (pool) {
    // Not `pool.query()`: it closes the connection after any error, a unique violation included.
    const client = await pool.connect();
    try {
      const { rows } = await client.query({ text, values: parameters, name: prepared });
      return rows as T[];
    } catch (error) {
      throw new QueryFailedError(text, parameters, error as Error);
    } finally {
      client.release();
    }
  }
  const result = await executor.query(text, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/**
 * One page of a list and the list's total, two statements run side by side with the same
 * `parameters` ($1..$n); `rows` takes LIMIT and OFFSET as $n+1 and $n+2. Each is written whole
 * at its call site, so both are checked. `total` may count the rows, count at most so many
 * (`SELECT count(*) ... FROM (SELECT 1 ... LIMIT 10000)`) or sum a table of trigger-kept totals.
 */
export async function pageOf<T>(
  executor: SqlExecutor,
  statements: { rows: Query<T>; total: Query<{ total: string }> },
  parameters: unknown[],
  page: { perPage: number; offset: number },
): Promise<{ rows: T[]; total: number }> {
  const [rows, count] = await Promise.all([
    sql(executor, statements.rows, [...parameters, page.perPage, page.offset]),
    sql(executor, statements.total, parameters),
  ]);
  return { rows, total: Number(count[0].total) };
}

/** Whether a failed statement broke a unique index (PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const failure = error as { code?: string; driverError?: { code?: string } } | null;
  return failure?.code === '23505' || failure?.driverError?.code === '23505';
}

/** `%`, `_` and the escape character itself match literally inside a LIKE or ILIKE pattern. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
