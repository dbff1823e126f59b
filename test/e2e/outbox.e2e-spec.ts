import { createPostgresBackend, Queue, setDefaultBackendFactory } from 'bullmq';
import type { Pool } from 'pg';
import { eventually, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { redisAvailable, type RedisServer, startRedis } from '../utils/redis';

/** Writes one event the way a feature does: inside its own transaction, committed or not. */
async function writeEvent(db: Pool, type: string, commit: boolean): Promise<string> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO outbox_events (organization_id, event_type, payload) VALUES (1, $1, $2) RETURNING id`,
      [type, { marker: type }],
    );
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return rows[0].id;
  } finally {
    client.release();
  }
}

async function processedAt(db: Pool, id: string): Promise<Date | null | undefined> {
  const { rows } = await db.query<{ processed_at: Date | null }>(
    'SELECT processed_at FROM outbox_events WHERE id = $1',
    [id],
  );
  return rows[0]?.processed_at;
}

const modes: { name: string; redis: boolean }[] = [
  { name: 'PostgreSQL queue backend', redis: false },
];
if (redisAvailable()) modes.push({ name: 'Redis queue backend', redis: true });

describe.each(modes)('outbox relay and domain-events job on the $name', ({ redis: useRedis }) => {
  let databaseUrl: string;
  let db: Pool;
  let redis: RedisServer | undefined;
  let queue: Queue;
  const env = () => ({ DATABASE_URL: databaseUrl, REDIS_URL: redis?.url });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
    if (useRedis) {
      redis = await startRedis();
      setDefaultBackendFactory();
      queue = new Queue('domain-events', { connection: { url: redis.url } });
    } else {
      setDefaultBackendFactory(createPostgresBackend);
      queue = new Queue('domain-events', {
        connection: { connectionString: databaseUrl, migrate: true },
      });
    }
  });

  afterAll(async () => {
    await queue?.close();
    await db?.end();
    await redis?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('delivers a committed event and never one whose transaction rolled back', async () => {
    const app = await startApp(env());
    try {
      const rolledBack = await writeEvent(db, 'test.rolled_back', false);
      const committed = await writeEvent(db, 'test.committed', true);

      await eventually(async () => (await processedAt(db, committed)) ?? undefined);
      // Its job ran and was removed as it completed.
      await eventually(async () => (await queue.getJob(`outbox-${committed}`)) === undefined);

      // The rolled-back insert used a sequence value but left no row and no job.
      expect(Number(rolledBack)).toBeLessThan(Number(committed));
      expect(await processedAt(db, rolledBack)).toBeUndefined();
      expect(await queue.getJob(`outbox-${rolledBack}`)).toBeUndefined();
    } finally {
      await app.stop();
    }
  });

  it('loses nothing when the process dies between the commit and the relay', async () => {
    // An instance without workers accepts the commit but relays nothing; then it is killed hard.
    const webOnly = await startApp({ ...env(), WORKERS_ENABLED: 'false' });
    const ids = [];
    for (let i = 0; i < 25; i += 1) ids.push(await writeEvent(db, 'test.durable', true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await processedAt(db, ids[0])).toBeNull();
    await webOnly.kill();

    const worker = await startApp(env());
    try {
      for (const id of ids) await eventually(async () => (await processedAt(db, id)) ?? undefined);
      const { rows } = await db.query<{ pending: string }>(
        `SELECT count(*) AS pending FROM outbox_events WHERE processed_at IS NULL`,
      );
      expect(rows[0].pending).toBe('0');
    } finally {
      await worker.stop();
    }
  });

  it('relays from several instances at once without losing an event', async () => {
    const [a, b] = await Promise.all([startApp(env()), startApp(env())]);
    try {
      const ids = await Promise.all(
        Array.from({ length: 60 }, () => writeEvent(db, 'test.parallel', true)),
      );
      for (const id of ids) await eventually(async () => (await processedAt(db, id)) ?? undefined);
      const { rows } = await db.query<{ unmarked: string }>(
        `SELECT count(*) AS unmarked FROM outbox_events
          WHERE id = ANY($1::bigint[]) AND enqueued_at IS NULL`,
        [ids],
      );
      expect(rows[0].unmarked).toBe('0');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
