import { AppError } from '../../../common/errors/app-error';
import type { Dialect } from '../sql-dialect';

/** How long one statement on an owner database may run, and how long a connection may take. */
export const STATEMENT_TIMEOUT_MS = 3000;
export const CONNECT_TIMEOUT_MS = 3000;
/** The client gives up on a statement this long after the server should have stopped it. */
export const CLIENT_GRACE_MS = 1000;
/** At most this many connections to one owner database per app instance. */
export const POOL_SIZE = 3;
/** Idle connections are closed after this long. */
export const IDLE_TIMEOUT_MS = 30_000;

/** Runs statements of one read-only transaction; answers the rows. */
export type ReadQuery = <T extends object = Record<string, string | null>>(
  text: string,
  values?: unknown[],
) => Promise<T[]>;

/**
 * A site owner's database, read only: each `read` is one read-only transaction whose statements
 * may each run STATEMENT_TIMEOUT_MS, in the given time zone. PostgreSQL and MySQL/MariaDB
 * implement it; `dialect` says how their queries are written.
 */
export interface OwnerDatabase {
  readonly dialect: Dialect;
  read<T>(work: (query: ReadQuery) => Promise<T>, options?: { timeZone?: string }): Promise<T>;
  close(): Promise<void>;
}

/**
 * Why a read failed: the target policy or the URL's form forbids the connection (`refused`,
 * decided before anything is sent), the server refused the login (`authentication`), the server
 * cannot be reached (`unreachable`), a statement or the connection ran out of time (`timeout`), a value could not be compared with a column (`value`,
 * e.g. letters against a number column: such a value matches nothing), the tables or privileges
 * no longer fit the settings (`schema`), anything else (`failed`).
 */
export type OwnerFailure =
  'refused' | 'authentication' | 'unreachable' | 'timeout' | 'value' | 'schema' | 'failed';

export class OwnerDatabaseError extends Error {
  constructor(
    readonly kind: OwnerFailure,
    readonly reason: string,
  ) {
    super(`owner database ${kind}: ${reason}`);
    this.name = 'OwnerDatabaseError';
  }
}

/** A pooled connection of one driver, as `readOnly` uses it. */
export interface ReadConnection {
  /** The session's settings (statement time limit, time zone) and the read-only transaction. */
  begin(): Promise<void>;
  query: ReadQuery;
  end(statement: 'COMMIT' | 'ROLLBACK'): Promise<unknown>;
  /** Back to the pool, or dropped when `broken`. */
  release(broken: boolean): void;
}

/**
 * One read-only transaction on a connection, the same for every driver: `begin`, `work`, commit.
 * `classify` is the driver's reading of its errors. A failure rolls back, except where the
 * connection may still be busy (a timeout) or gone: such a connection is dropped, not reused.
 */
export async function readOnly<T>(
  connection: ReadConnection,
  classify: (error: unknown) => OwnerDatabaseError | undefined,
  work: (query: ReadQuery) => Promise<T>,
): Promise<T> {
  let broken = false;
  try {
    try {
      await connection.begin();
    } catch (error) {
      // Not a value of the visitor's (a time zone the server does not know, say): a failure.
      const failure = classify(error);
      throw failure?.kind === 'value' ? new OwnerDatabaseError('failed', failure.reason) : error;
    }
    const result = await work(connection.query);
    await connection.end('COMMIT');
    return result;
  } catch (error) {
    const failure = classify(error);
    broken = !failure || failure.kind === 'unreachable' || failure.kind === 'timeout';
    if (!broken) await connection.end('ROLLBACK').catch(() => (broken = true));
    throw failure ?? error;
  } finally {
    connection.release(broken);
  }
}

const MESSAGES: Record<Exclude<OwnerFailure, 'value'>, string> = {
  refused: "The site's database may not be reached from this service. Please try again later.",
  authentication: "The site's database refused the service's login. Please try again later.",
  unreachable: "The site's database cannot be reached right now. Please try again later.",
  timeout: "The site's database did not answer in time. Please try again later.",
  schema: "The site's data lookup does not match its database any more. Please try again later.",
  failed: "The site's database could not answer. Please try again later.",
};

/** A widget-facing 503 for an owner database that failed (see docs/decisions.md). */
export function unavailable(error: OwnerDatabaseError): AppError {
  const kind = error.kind === 'value' ? 'failed' : error.kind;
  return new AppError('service_unavailable', MESSAGES[kind], {
    reason: 'owner_database_unavailable',
  });
}

/**
 * The generic category a tenant is told when the owner database fails while its settings are
 * saved or tested; the driver's own text (addresses, ports, file names) stays in the log.
 */
export function failureCategory(error: OwnerDatabaseError): string {
  switch (error.kind) {
    case 'refused':
      return 'refused by policy';
    case 'authentication':
      return 'authentication failed';
    case 'timeout':
      return 'timeout';
    case 'unreachable':
    case 'value':
    case 'schema':
    case 'failed':
      return 'unreachable';
  }
}
