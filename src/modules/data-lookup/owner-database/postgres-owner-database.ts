import { Logger } from '@nestjs/common';
import { type DatabaseError, escapeLiteral, Pool, type PoolClient } from 'pg';
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
import { type Dialect, POSTGRES } from '../sql-dialect';
import { type ConnectionTarget, guardedSocket } from './connection-target';
import type { TargetPolicy } from '../../../common/net/target-policy';

/**
 * An owner's PostgreSQL: a small pool, every read in `BEGIN READ ONLY` with a local statement
 * timeout. The client also gives up on a statement a little after the server should have, so a
 * server that stops answering altogether cannot hold a request either.
 */
export class PostgresOwnerDatabase implements OwnerDatabase {
  readonly dialect: Dialect = POSTGRES;
  private readonly logger = new Logger('data-lookup');
  private readonly pool: Pool;

  constructor(target: ConnectionTarget, policy: () => TargetPolicy, size = POOL_SIZE) {
    this.pool = new Pool({
      // Every field set here, so nothing is read from PG* variables or ~/.pgpass.
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      database: target.database ?? target.user,
      ssl:
        target.tls === false
          ? false
          : target.tls === 'verify'
            ? { rejectUnauthorized: true }
            : { rejectUnauthorized: false },
      // The socket checks the address it connects to against the target policy.
      stream: () => guardedSocket(policy),
      max: size,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + CLIENT_GRACE_MS,
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
      application_name: 'support-chat-data-lookup',
    });
    // An idle connection the server drops must not crash the process.
    this.pool.on('error', (error) =>
      this.logger.warn({ msg: 'owner database connection lost', err: error.message }),
    );
  }

  async read<T>(work: (query: ReadQuery) => Promise<T>, options: { timeZone?: string } = {}) {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw connectFailure(error);
    }
    return readOnly(
      {
        begin: async () => {
          await client.query(
            `BEGIN READ ONLY; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}` +
              (options.timeZone ? `; SET LOCAL TimeZone = ${escapeLiteral(options.timeZone)}` : ''),
          );
        },
        query: async <R extends object>(text: string, values: unknown[] = []) =>
          (await client.query<R>(text, values)).rows,
        end: (statement) => client.query(statement),
        // A connection that timed out on the client side may still run the statement: dropped.
        release: (broken) => client.release(broken),
      },
      classify,
      work,
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a connection could not be had: refused by policy, the login, a timeout, or unreachable. */
function connectFailure(error: unknown): OwnerDatabaseError {
  const failure = classify(error);
  if (failure?.kind === 'refused' || failure?.kind === 'authentication') return failure;
  if (error instanceof Error && /timeout/i.test(error.message)) {
    return new OwnerDatabaseError('timeout', reason(error));
  }
  return new OwnerDatabaseError('unreachable', reason(error));
}

const CONNECTION_LOST = /connection|terminated|ECONNRESET|EPIPE|socket/i;

/** The failure of a pg error; undefined for anything else (a bug of ours stays what it is). */
function classify(error: unknown): OwnerDatabaseError | undefined {
  if (error instanceof OwnerDatabaseError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = (error as Partial<DatabaseError>).code ?? '';
  let kind: OwnerFailure;
  if (code === '57014' || /Query read timeout/i.test(error.message)) kind = 'timeout';
  else if (code.startsWith('28')) kind = 'authentication';
  else if (code.startsWith('22')) kind = 'value';
  else if (code.startsWith('42')) kind = 'schema';
  else if (code.startsWith('08') || code.startsWith('57P')) kind = 'unreachable';
  else if (!code && CONNECTION_LOST.test(error.message)) kind = 'unreachable';
  else if (code) kind = 'failed';
  else return undefined;
  return new OwnerDatabaseError(kind, `${code ? `${code} ` : ''}${error.message}`);
}
