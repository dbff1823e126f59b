import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Client } from 'pg';
import { adminUrl, databaseUrl } from './test-env';

export interface OwnerDatabase {
  /** The read-only login the service is given, e.g. for the data-lookup settings. */
  readerUrl: string;
  /** A superuser URL of the same database, for the test to change data. */
  adminUrl: string;
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

/**
 * A real second PostgreSQL database on the test server standing in for a site owner's shop:
 * `customers`, `payments`, `orders`, and a `slow_orders` view whose rows take 5 s each. The
 * service gets a login that may only read them. (Named `scs_test_...` so a later run's setup
 * removes it if this run dies.)
 */
export async function createOwnerDatabase(): Promise<OwnerDatabase> {
  const suffix = randomBytes(5).toString('hex');
  const name = `scs_test_owner_${suffix}`;
  const role = `scs_owner_reader_${suffix}`;
  const password = randomBytes(12).toString('hex');
  await withClient(adminUrl(), async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    await client.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  });
  const admin = databaseUrl(name);
  await withClient(admin, async (client) => {
    await client.query(`
      CREATE TABLE customers (
        id serial PRIMARY KEY, name text NOT NULL, email text, mobile text, secret_note text);
      CREATE TABLE payments (
        id serial PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers (id),
        txn_id text NOT NULL, utr text, amount numeric(10, 2) NOT NULL, status text NOT NULL,
        mobile text, paid_at timestamptz NOT NULL);
      CREATE TABLE orders (
        id serial PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers (id),
        total numeric(10, 2) NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL);
      CREATE FUNCTION slowly(integer) RETURNS integer LANGUAGE sql AS 'SELECT $1 FROM pg_sleep(5)';
      CREATE VIEW slow_orders AS SELECT id, slowly(customer_id) AS customer_id, total, status, created_at FROM orders;
      REVOKE ALL ON SCHEMA public FROM PUBLIC;
      GRANT USAGE ON SCHEMA public TO ${role};
      GRANT SELECT ON customers, payments, orders, slow_orders TO ${role};
      GRANT CONNECT ON DATABASE ${name} TO ${role};`);
    await seed(client);
  });
  const reader = new URL(admin);
  reader.username = role;
  reader.password = password;
  return {
    readerUrl: reader.toString(),
    adminUrl: admin,
    query: (text, values = []) =>
      withClient(
        admin,
        async (client) => (await client.query(text, values)).rows as Record<string, unknown>[],
      ),
    async drop() {
      await withClient(adminUrl(), async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.query(`DROP ROLE IF EXISTS ${role}`);
      });
    },
  };
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The shop's customers (ids 1, 2, 3) as the tests refer to them. */
export const ADA = {
  id: 1,
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  mobile: '+44 20 7946 0001',
};
export const BOB = {
  id: 2,
  name: 'Bob <b>Builder</b>',
  email: 'bob@example.test',
  mobile: '+44 20 7946 0002',
};
/** Customers 3 and 4 share this mobile number: it names two accounts and logs in to neither. */
export const TWIN = { id: 3, name: 'Twin', email: null, mobile: '+44 20 7946 0009' };

async function seed(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO customers (id, name, email, mobile, secret_note) VALUES
       (1, $1, $2, $3, 'ada secret'), (2, $4, $5, $6, 'bob secret'), (3, 'Twin', NULL, $7, NULL),
       (4, 'Twin Two', 'twin2@example.test', $7, NULL)`,
    [ADA.name, ADA.email, ADA.mobile, BOB.name, BOB.email, BOB.mobile, TWIN.mobile],
  );
  await client.query(`
    INSERT INTO payments (customer_id, txn_id, utr, amount, status, mobile, paid_at) VALUES
      (1, 'TXN-A1', 'UTR-A1', 10.50, 'success', '+44 20 7946 0001', '2026-01-10T10:00:00Z'),
      (1, 'TXN-A2', 'UTR-A2', 99.00, 'failed', '+44 20 7946 0001', '2026-02-05T23:30:00Z'),
      (1, 'TXN-A3', 'UTR-A3', 5.00, 'success', '+44 20 7946 0001', '2026-03-01T08:00:00Z'),
      (2, 'TXN-B1', 'UTR-B1', 1000.00, 'success', '+44 20 7946 0002', '2026-01-10T12:00:00Z'),
      (2, 'TXN-B2', 'UTR-B2', 7.25, 'failed', '+44 20 7946 0002', '2026-02-06T12:00:00Z');
    INSERT INTO orders (id, customer_id, total, status, created_at)
      SELECT n, 1, 10 * n, CASE WHEN n % 2 = 0 THEN 'shipped' ELSE 'packed' END,
             '2026-01-01T00:00:00Z'::timestamptz + n * interval '1 day'
        FROM generate_series(1, 7) AS n;
    INSERT INTO orders (id, customer_id, total, status, created_at) VALUES
      (100, 2, 55.00, '<img src=x onerror=alert(1)>', '2026-01-05T00:00:00Z'),
      (101, 2, 66.00, 'shipped', '2026-01-06T00:00:00Z');`);
}

/** Data-lookup settings over the shop, as an owner would PUT them. */
export function shopSettings(url: string, overrides: Record<string, unknown> = {}) {
  return {
    enabled: true,
    connection: { driver: 'postgres', url },
    account: {
      table: 'customers',
      key_column: 'id',
      lookup_columns: ['email', 'mobile'],
      email_column: 'email',
      name_column: 'name',
    },
    require_otp: false,
    filter_record: {
      enabled: true,
      button_label: 'Find a payment',
      table: 'payments',
      account_column: 'customer_id',
      filters: { txn: 'txn_id', utr: 'utr', status: 'status', mobile: 'mobile', date: 'paid_at' },
      columns: ['txn_id', 'utr', 'amount', 'status', 'paid_at'],
      limit: 20,
      empty_reply: 'No matching payments.',
      login_required_reply: 'Please log in to see your payments.',
    },
    rules: [
      {
        id: 'orders',
        label: 'My orders',
        keywords: ['order', 'orders'],
        table: 'orders',
        account_column: 'customer_id',
        columns: ['id', 'total', 'status', 'created_at'],
        order_by: 'created_at',
        direction: 'desc',
        page_size: 3,
        actions: [{ id: 'track', label: 'Track', reply: 'Order {{id}} is {{status}}.' }],
      },
    ],
    ...overrides,
  };
}

/** A table block of a reply, parsed. */
export function tableOf(body: string): {
  columns: string[];
  rows: (string | null)[][];
  [key: string]: unknown;
} {
  const match = /\[\[table\]\]([\s\S]*?)\[\[\/table\]\]/.exec(body);
  if (!match) throw new Error(`no table in ${body}`);
  return JSON.parse(match[1]) as { columns: string[]; rows: (string | null)[][] };
}

/**
 * A TCP relay in front of the owner database, so a test can take the database away: `refuse`
 * closes the port (and cuts open connections), `blackhole` accepts connections and never answers.
 */
export async function startRelay(targetUrl: string) {
  const target = new URL(targetUrl);
  let mode: 'forward' | 'blackhole' = 'forward';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (mode === 'blackhole') return;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
    socket.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    blackhole() {
      mode = 'blackhole';
      cut();
    },
    async refuse() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
