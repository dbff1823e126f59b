import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Connection, type ConnectionOptions, createConnection } from 'mysql2/promise';
import { freePort, localServerAvailable } from './local-server';
import { ADA, BOB, TWIN } from './owner-database';

export interface MysqlOwnerDatabase {
  /** The read-only login the service is given (mysql://). */
  readerUrl: string;
  /** Runs a statement as an administrator of the shop database (to change data). */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

/**
 * Whether the MySQL-driver tests can run (see localServerAvailable); `TEST_MYSQL_URL` (an
 * administrator's mysql:// URL) uses a running server instead of a private mariadbd.
 */
export const mysqlAvailable = (): boolean =>
  localServerAvailable({
    env: 'TEST_MYSQL_URL',
    binaries: ['mariadbd', 'mariadb-install-db', 'mariadb-tzinfo-to-sql'],
    package: 'mariadb-server',
    tests: 'MySQL-driver tests',
  });

interface Server {
  admin: ConnectionOptions;
  host: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A private MariaDB in a temporary directory on a free port (root reachable through its socket
 * only), or the server of TEST_MYSQL_URL.
 */
async function startServer(): Promise<Server> {
  if (process.env.TEST_MYSQL_URL) {
    const url = new URL(process.env.TEST_MYSQL_URL);
    return {
      admin: {
        host: url.hostname,
        port: Number(url.port || 3306),
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      },
      host: url.hostname,
      port: Number(url.port || 3306),
      stop: async () => undefined,
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scs-mariadb-'));
  const dataDir = path.join(dir, 'data');
  const socket = path.join(dir, 'sock');
  execFileSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      // Tests run as root in CI containers; mariadbd refuses root unless told to be it.
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ],
    { stdio: 'ignore' },
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${path.join(dir, 'pid')}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ],
    { stdio: 'ignore' },
  );
  const admin: ConnectionOptions = { socketPath: socket, user: 'root', password: '' };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await createConnection(admin).then(
      async (connection) => {
        await connection.end();
        return true;
      },
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error('mariadbd did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    admin,
    host: '127.0.0.1',
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Loads these named zones into the server's time zone tables (a fresh MariaDB has none, so
 * `SET time_zone = 'Europe/Berlin'` fails there): only the few a suite names, from
 * /usr/share/zoneinfo through `mariadb-tzinfo-to-sql`, which takes well under a second. A zone
 * the server already knows is left alone; one that cannot be loaded is skipped with a warning.
 */
async function loadTimeZones(admin: ConnectionOptions, zones: string[]): Promise<void> {
  if (zones.length === 0) return;
  const connection = await createConnection({
    ...admin,
    database: 'mysql',
    multipleStatements: true,
  });
  try {
    for (const zone of zones) {
      const [known] = await connection.query(`SELECT 1 FROM time_zone_name WHERE Name = ?`, [zone]);
      if ((known as unknown[]).length > 0) continue;
      try {
        const sql = execFileSync(
          'mariadb-tzinfo-to-sql',
          [path.join('/usr/share/zoneinfo', zone), zone],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
        );
        await connection.query(sql);
      } catch (error) {
        console.warn(`time zone ${zone} not loaded into MariaDB: ${(error as Error).message}`);
      }
    }
  } finally {
    await connection.end();
  }
}

/**
 * A site owner's shop on MySQL/MariaDB with the rows of the PostgreSQL one (test/utils/
 * owner-database.ts): `customers`, `payments` (paid_at a TIMESTAMP, so it follows the session's
 * time zone like timestamptz), `orders`, a `slow_orders` view whose rows take 5 s each, and a
 * `staff` table the service's login may not read. The login may only SELECT. The server knows
 * the named time zones of `timeZones` and no others (a private server; see loadTimeZones).
 */
export async function createMysqlOwnerDatabase(
  options: { timeZones?: string[] } = {},
): Promise<MysqlOwnerDatabase> {
  const server = await startServer();
  await loadTimeZones(server.admin, options.timeZones ?? []).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const suffix = randomBytes(5).toString('hex');
  const name = `scs_shop_${suffix}`;
  const reader = `reader_${suffix}`;
  const password = randomBytes(12).toString('hex');
  const withAdmin = async <T>(work: (connection: Connection) => Promise<T>): Promise<T> => {
    const connection = await createConnection({
      ...server.admin,
      database: name,
      timezone: 'Z',
      dateStrings: true,
    });
    try {
      await connection.query(`SET time_zone = '+00:00'`);
      return await work(connection);
    } finally {
      await connection.end();
    }
  };
  const root = await createConnection(server.admin);
  try {
    await root.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    await root.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${password}'`);
  } finally {
    await root.end();
  }
  await withAdmin(async (connection) => {
    for (const statement of [
      `CREATE TABLE customers (
         id int PRIMARY KEY, name varchar(100) NOT NULL, email varchar(100),
         mobile varchar(40), secret_note text)`,
      `CREATE TABLE payments (
         id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers (id),
         txn_id varchar(40) NOT NULL, utr varchar(40), amount decimal(10, 2) NOT NULL,
         status varchar(20) NOT NULL, mobile varchar(40), paid_at timestamp NOT NULL)`,
      `CREATE TABLE orders (
         id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers (id),
         total decimal(10, 2) NOT NULL, status varchar(100) NOT NULL, created_at datetime NOT NULL)`,
      `CREATE VIEW slow_orders AS
         SELECT id, customer_id, total, status, created_at FROM orders WHERE SLEEP(5) = 0`,
      `CREATE TABLE staff (id int, email varchar(100))`,
      ...['customers', 'payments', 'orders', 'slow_orders'].map(
        (table) => `GRANT SELECT ON ${name}.${table} TO '${reader}'@'%'`,
      ),
    ]) {
      await connection.query(statement);
    }
    await connection.execute(
      `INSERT INTO customers (id, name, email, mobile, secret_note) VALUES
         (1, ?, ?, ?, 'ada secret'), (2, ?, ?, ?, 'bob secret'), (3, 'Twin', NULL, ?, NULL),
         (4, 'Twin Two', 'twin2@example.test', ?, NULL)`,
      [ADA.name, ADA.email, ADA.mobile, BOB.name, BOB.email, BOB.mobile, TWIN.mobile, TWIN.mobile],
    );
    await connection.query(`
      INSERT INTO payments (id, customer_id, txn_id, utr, amount, status, mobile, paid_at) VALUES
        (1, 1, 'TXN-A1', 'UTR-A1', 10.50, 'success', '+44 20 7946 0001', '2026-01-10 10:00:00'),
        (2, 1, 'TXN-A2', 'UTR-A2', 99.00, 'failed', '+44 20 7946 0001', '2026-02-05 23:30:00'),
        (3, 1, 'TXN-A3', 'UTR-A3', 5.00, 'success', '+44 20 7946 0001', '2026-03-01 08:00:00'),
        (4, 2, 'TXN-B1', 'UTR-B1', 1000.00, 'success', '+44 20 7946 0002', '2026-01-10 12:00:00'),
        (5, 2, 'TXN-B2', 'UTR-B2', 7.25, 'failed', '+44 20 7946 0002', '2026-02-06 12:00:00')`);
    await connection.query(`
      INSERT INTO orders (id, customer_id, total, status, created_at) VALUES
        (1, 1, 10, 'packed', '2026-01-02'), (2, 1, 20, 'shipped', '2026-01-03'),
        (3, 1, 30, 'packed', '2026-01-04'), (4, 1, 40, 'shipped', '2026-01-05'),
        (5, 1, 50, 'packed', '2026-01-06'), (6, 1, 60, 'shipped', '2026-01-07'),
        (7, 1, 70, 'packed', '2026-01-08'),
        (100, 2, 55.00, '<img src=x onerror=alert(1)>', '2026-01-05'),
        (101, 2, 66.00, 'shipped', '2026-01-06')`);
  });
  return {
    readerUrl: `mysql://${reader}:${password}@${server.host}:${server.port}/${name}`,
    query: (text, values = []) =>
      withAdmin(
        async (connection) =>
          (await connection.query(text, values))[0] as Record<string, unknown>[],
      ),
    async drop() {
      const connection = await createConnection(server.admin);
      try {
        await connection.query(`DROP DATABASE IF EXISTS ${name}`);
        await connection.query(`DROP USER IF EXISTS '${reader}'@'%'`);
      } finally {
        await connection.end();
      }
      await server.stop();
    },
  };
}
