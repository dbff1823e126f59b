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
 * `code` and the rest copied).
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

/**
 * Runs a statement and returns its rows. TypeORM answers UPDATE and DELETE on PostgreSQL with
 * `[rows, affectedCount]` instead of the rows; this evens that out so `RETURNING` reads the same
 * for every statement. `prepared` names a statement the driver prepares once per connection and
 * then only binds and executes (for fixed, frequent statements whose plan cannot go wrong).
 */
export async function sql<T>(
  executor: SqlExecutor,
  text: string,
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
 * One page of a filtered list and the filter's total, in two queries sharing the same WHERE and
 * parameters. `where` uses $1..$n for `parameters`; LIMIT and OFFSET are appended after them.
 * `totalsFrom` names a table of trigger-kept counts (a `total` column, the same filter columns)
 * to sum instead of counting the rows.
 */
export async function pageOf<T>(
  executor: SqlExecutor,
  query: {
    columns: string;
    from: string;
    where: string;
    parameters: unknown[];
    orderBy: string;
    totalsFrom?: string;
    /** Count at most this many rows (a search matching half a million messages says 10 000). */
    countLimit?: number;
  },
  page: { perPage: number; offset: number },
): Promise<{ rows: T[]; total: number }> {
  const next = query.parameters.length;
  const total = query.totalsFrom
    ? `SELECT coalesce(sum(total), 0) AS total FROM ${query.totalsFrom} WHERE ${query.where}`
    : query.countLimit
      ? `SELECT count(*) AS total FROM (SELECT 1 FROM ${query.from} WHERE ${query.where}
         LIMIT ${Math.trunc(query.countLimit)}) AS counted`
      : `SELECT count(*) AS total FROM ${query.from} WHERE ${query.where}`;
  const [rows, count] = await Promise.all([
    sql<T>(
      executor,
      `SELECT ${query.columns} FROM ${query.from} WHERE ${query.where}
       ORDER BY ${query.orderBy} LIMIT $${next + 1} OFFSET $${next + 2}`,
      [...query.parameters, page.perPage, page.offset],
    ),
    sql<{ total: string }>(executor, total, query.parameters),
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
