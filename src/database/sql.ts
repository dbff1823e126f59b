/** Anything that runs SQL: the DataSource or a transaction's EntityManager. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Runs a statement and returns its rows. TypeORM answers UPDATE and DELETE on PostgreSQL with
 * `[rows, affectedCount]` instead of the rows; this evens that out so `RETURNING` reads the same
 * for every statement.
 */
export async function sql<T>(
  executor: SqlExecutor,
  text: string,
  parameters: unknown[] = [],
): Promise<T[]> {
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
