import { Logger } from '@nestjs/common';
import { DateTime } from 'luxon';
import {
  createPool,
  type ExecuteValues,
  type Pool,
  type PoolConnection,
  type QueryError,
} from 'mysql2/promise';
import { type Dialect, MYSQL } from '../sql-dialect';
import {
  CLIENT_GRACE_MS,
  CONNECT_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  type OwnerDatabase,
  OwnerDatabaseError,
  type OwnerFailure,
  POOL_SIZE,
  readOnly,
  type ReadQuery,
  STATEMENT_TIMEOUT_MS,
} from './owner-database';
import { type ConnectionTarget, guardedSocket } from './connection-target';
import type { TargetPolicy } from '../../../common/net/target-policy';

/** What one pooled connection has been set to, so a read only sends what changed. */
interface Session {
  statementTimeout: boolean;
  timeZone?: string;
}

/** MariaDB's `SET time_zone` with a name its time zone tables lack (ER_UNKNOWN_TIME_ZONE). */
const UNKNOWN_TIME_ZONE = 1298;
/** ER_UNKNOWN_SYSTEM_VARIABLE: a server without a statement time limit (MySQL before 5.7.8). */
const UNKNOWN_VARIABLE = 1193;

/**
 * An owner's MySQL (8 or later) or MariaDB: a small pool, every read in `START TRANSACTION READ
 * ONLY`, each connection with the server's statement time limit (MariaDB `max_statement_time`,
 * MySQL `max_execution_time`) and the site's time zone. The client also gives up on a statement a
 * little after the server should have, and then drops the connection instead of reusing it.
 * Values are bound in server-side prepared statements, never escaped into the text.
 */
export class MysqlOwnerDatabase implements OwnerDatabase {
  readonly dialect: Dialect = MYSQL;
  private readonly logger = new Logger('data-lookup');
  private readonly pool: Pool;
  private readonly sessions = new WeakMap<object, Session>();
  private mariadb?: Promise<boolean>;
  /** False once the server said it has no time zone tables: UTC offsets are set instead. */
  private namedZones = true;

  constructor(target: ConnectionTarget, policy: () => TargetPolicy, size = POOL_SIZE) {
    this.pool = createPool({
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      database: target.database,
      ...(target.tls === false ? {} : { ssl: { rejectUnauthorized: target.tls === 'verify' } }),
      // The socket checks the address it connects to against the target policy (mysql2 keeps
      // `host` for the TLS server name).
      stream: () => guardedSocket(policy).connect(target.port, target.host),
      connectionLimit: size,
      maxIdle: size,
      idleTimeout: IDLE_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      charset: 'utf8mb4',
      // Nothing is converted by the driver: every value is read as the database writes it.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      // Each statement is prepared once per connection; few, so the server's global limit of
      // prepared statements (shared with the owner's own applications) is not used up.
      maxPreparedStatements: 32,
      multipleStatements: false,
    });
  }

  async read<T>(work: (query: ReadQuery) => Promise<T>, options: { timeZone?: string } = {}) {
    const connection = await this.acquire();
    return readOnly(
      {
        begin: async () => {
          await this.prepare(connection, options.timeZone);
          await run(connection, 'START TRANSACTION READ ONLY');
        },
        query: async <R extends object>(text: string, values: unknown[] = []) =>
          (await run(connection, text, values)) as R[],
        end: (statement) => run(connection, statement),
        // A connection that timed out on the client side may still run the statement: dropped.
        release: (broken) => (broken ? connection.destroy() : connection.release()),
      },
      classify,
      work,
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /**
   * A pooled connection; `unreachable` after the connect timeout, also while every connection
   * is busy (as the PostgreSQL pool does). A connection that arrives late goes back to the pool.
   */
  private async acquire(): Promise<PoolConnection> {
    const pending = this.pool.getConnection();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new OwnerDatabaseError('timeout', 'timeout exceeded when connecting')),
        CONNECT_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([pending, timeout]);
    } catch (error) {
      pending.then(
        (connection) => connection.release(),
        () => undefined,
      );
      throw classify(error) ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection's statement time limit (once) and the read's time zone (when it changed). */
  private async prepare(connection: PoolConnection, timeZone: string | undefined): Promise<void> {
    let session = this.sessions.get(connection.connection);
    if (!session) {
      session = { statementTimeout: false };
      this.sessions.set(connection.connection, session);
    }
    if (!session.statementTimeout) {
      const limit = (await this.isMariadb(connection))
        ? `SET SESSION max_statement_time = ${STATEMENT_TIMEOUT_MS / 1000}`
        : `SET SESSION max_execution_time = ${STATEMENT_TIMEOUT_MS}`;
      await run(connection, limit).catch((error: unknown) => {
        // Without one, the client's timeout still ends the request.
        if ((error as Partial<QueryError>).errno !== UNKNOWN_VARIABLE) throw error;
      });
      session.statementTimeout = true;
    }
    if (timeZone === undefined) return;
    if (this.namedZones && session.timeZone !== timeZone) {
      try {
        await run(connection, 'SET time_zone = ?', [timeZone]);
        session.timeZone = timeZone;
        return;
      } catch (error) {
        if ((error as Partial<QueryError>).errno !== UNKNOWN_TIME_ZONE) throw error;
        this.namedZones = false;
        this.logger.warn({
          msg: 'owner database has no time zone tables: using the current UTC offset',
          timeZone,
        });
      }
    }
    if (this.namedZones) return;
    const offset = currentOffset(timeZone);
    if (session.timeZone === offset) return;
    await run(connection, 'SET time_zone = ?', [offset]);
    session.timeZone = offset;
  }

  /** Whether the server is MariaDB (its version says so), asked once. */
  private isMariadb(connection: PoolConnection): Promise<boolean> {
    this.mariadb ??= run(connection, 'SELECT VERSION() AS version').then(([row]) =>
      /mariadb/i.test(String((row as { version?: unknown }).version)),
    );
    // A failed answer is asked again next time.
    this.mariadb.catch(() => (this.mariadb = undefined));
    return this.mariadb;
  }
}

/** The zone's UTC offset now (`+05:30`); a zone luxon does not know is a failure. */
function currentOffset(timeZone: string): string {
  const now = DateTime.now().setZone(timeZone);
  if (!now.isValid) throw new OwnerDatabaseError('failed', `unknown time zone ${timeZone}`);
  return now.toFormat('ZZ');
}

/** One statement with the client-side timeout; answers its rows. */
async function run(
  connection: PoolConnection,
  sql: string,
  values: unknown[] = [],
): Promise<object[]> {
  const options = { sql, timeout: STATEMENT_TIMEOUT_MS + CLIENT_GRACE_MS };
  const [rows] =
    values.length > 0
      ? await connection.execute(options, values as ExecuteValues[])
      : await connection.query(options);
  return Array.isArray(rows) ? rows : [];
}

const TIMEOUT_ERRNOS = new Set([
  1969, // MariaDB ER_STATEMENT_TIMEOUT (max_statement_time)
  3024, // MySQL ER_QUERY_TIMEOUT (max_execution_time)
  1317, // ER_QUERY_INTERRUPTED
]);
const AUTHENTICATION_ERRNOS = new Set([
  1044, // ER_DBACCESS_DENIED_ERROR
  1045, // ER_ACCESS_DENIED_ERROR
  1251, // ER_NOT_SUPPORTED_AUTH_MODE
]);
const UNREACHABLE_ERRNOS = new Set([
  1040, // ER_CON_COUNT_ERROR
  1049, // ER_BAD_DB_ERROR
  1053, // ER_SERVER_SHUTDOWN
  1129, // ER_HOST_IS_BLOCKED
  1130, // ER_HOST_NOT_PRIVILEGED
  1203, // ER_TOO_MANY_USER_CONNECTIONS
]);
const VALUE_ERRNOS = new Set([
  1267, // ER_CANT_AGGREGATE_2COLLATIONS: a value the column's character set cannot hold
  1270, // ER_CANT_AGGREGATE_3COLLATIONS
  1271, // ER_CANT_AGGREGATE_NCOLLATIONS
  1292, // ER_TRUNCATED_WRONG_VALUE
  1300, // ER_INVALID_CHARACTER_STRING
  1366, // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  1411, // ER_WRONG_VALUE_FOR_TYPE
  1525, // ER_WRONG_VALUE
]);
const SCHEMA_ERRNOS = new Set([
  1051, // ER_BAD_TABLE_ERROR
  1054, // ER_BAD_FIELD_ERROR
  1142, // ER_TABLEACCESS_DENIED_ERROR
  1143, // ER_COLUMNACCESS_DENIED_ERROR
  1146, // ER_NO_SUCH_TABLE
  1356, // ER_VIEW_INVALID
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
]);

/** The failure of a mysql2 error; undefined for anything else (a bug of ours stays what it is). */
export function classify(error: unknown): OwnerDatabaseError | undefined {
  if (error instanceof OwnerDatabaseError) return error;
  if (!(error instanceof Error)) return undefined;
  const { code = '', errno, sqlState, fatal } = error as Partial<QueryError>;
  const server = typeof sqlState === 'string' && typeof errno === 'number';
  let kind: OwnerFailure;
  if (code === 'PROTOCOL_SEQUENCE_TIMEOUT' || (server && TIMEOUT_ERRNOS.has(errno))) {
    kind = 'timeout';
  } else if (server && AUTHENTICATION_ERRNOS.has(errno)) kind = 'authentication';
  else if (server && UNREACHABLE_ERRNOS.has(errno)) kind = 'unreachable';
  else if (server && (VALUE_ERRNOS.has(errno) || sqlState.startsWith('22'))) kind = 'value';
  else if (server && (SCHEMA_ERRNOS.has(errno) || sqlState.startsWith('42'))) kind = 'schema';
  else if (server) kind = 'failed';
  else if (NETWORK_CODES.has(code) || fatal === true || /Pool is closed/.test(error.message)) {
    kind = 'unreachable';
  } else return undefined;
  const label = server ? `${errno} ${code} ` : code ? `${code} ` : '';
  return new OwnerDatabaseError(kind, `${label}${error.message}`);
}
