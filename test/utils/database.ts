import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { eventually } from './app-process';
import { adminUrl, databaseUrl, TEMPLATE_DATABASE } from './test-env';

/** A fresh database cloned from the migrated template; each test file gets its own. */
export async function createTestDatabase(): Promise<string> {
  const name = `scs_test_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await client.end();
  }
  return databaseUrl(name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * The test's own connections to its database. An idle one the server ends (a FATAL such as
 * 57P01 on a connection nobody is using) is dropped by the pool and replaced at the next query,
 * as the app's own pools do; without a listener node-postgres throws it as an unhandled error
 * that fails whichever test is running (outbox, once, in a fresh-clone run: docs/testing.md).
 */
export function pool(url: string): Pool {
  const db = new Pool({ connectionString: url, max: 4 });
  db.on('error', (error) => console.warn(`test pool: an idle connection ended: ${error.message}`));
  return db;
}

/**
 * Waits until the app has finished what the test set going: every committed outbox event handled
 * (or given up),
 * and no job of `queues` waiting, delayed or running (BullMQ's PostgreSQL backend keeps its jobs
 * in the `bullmq` schema of the app's database). A test that asserts something did NOT happen
 * (no mail sent, no second notification) waits for this instead of for a fixed time: once the
 * work is done, nothing more can come of it. Not for Redis-mode apps.
 */
export async function settled(db: Pool, queues: string[], ms = 30_000): Promise<void> {
  let pending: unknown;
  const idle = async () => {
    const events = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL AND failed_at IS NULL`,
    );
    const jobs = await db.query<{ queue: string; id: string; state: string }>(
      `SELECT queue, id, state::text AS state FROM bullmq.job
       WHERE queue = ANY($1) AND state IN ('waiting', 'active', 'delayed', 'waiting-children')`,
      [queues],
    );
    pending = { events: events.rows[0].n, jobs: jobs.rows };
    return events.rows[0].n === 0 && jobs.rows.length === 0;
  };
  await eventually(idle, ms).catch(() => {
    throw new Error(`the app did not settle within ${ms} ms: ${JSON.stringify(pending)}`);
  });
}
