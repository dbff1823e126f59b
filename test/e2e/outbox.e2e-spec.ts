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

describe.each(modes)('outbox dispatcher with the $name', ({ redis: useRedis }) => {
  let databaseUrl: string;
  let db: Pool;
  let redis: RedisServer | undefined;
  const env = () => ({ DATABASE_URL: databaseUrl, REDIS_URL: redis?.url });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
    if (useRedis) redis = await startRedis();
  });

  afterAll(async () => {
    await db?.end();
    await redis?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('handles a committed event once and never one whose transaction rolled back', async () => {
    const app = await startApp(env());
    try {
      const rolledBack = await writeEvent(db, 'test.rolled_back', false);
      const committed = await writeEvent(db, 'test.committed', true);

      await eventually(async () => (await processedAt(db, committed)) ?? undefined);
      const { rows } = await db.query<{ attempts: number; claimed_until: Date | null }>(
        'SELECT attempts, claimed_until FROM outbox_events WHERE id = $1',
        [committed],
      );
      expect(rows[0]).toEqual({ attempts: 1, claimed_until: null });

      // The rolled-back insert used a sequence value but left no row to handle.
      expect(Number(rolledBack)).toBeLessThan(Number(committed));
      expect(await processedAt(db, rolledBack)).toBeUndefined();
    } finally {
      await app.stop();
    }
  });

  it('loses nothing when the process dies between the commit and the dispatch', async () => {
    // An instance without workers accepts the commit but dispatches nothing; then it is killed hard.
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

  it('dispatches from several instances at once, each event claimed once', async () => {
    const [a, b] = await Promise.all([startApp(env()), startApp(env())]);
    try {
      const ids = await Promise.all(
        Array.from({ length: 60 }, () => writeEvent(db, 'test.parallel', true)),
      );
      for (const id of ids) await eventually(async () => (await processedAt(db, id)) ?? undefined);
      const { rows } = await db.query<{ attempts: number }>(
        'SELECT DISTINCT attempts FROM outbox_events WHERE id = ANY($1::bigint[])',
        [ids],
      );
      expect(rows).toEqual([{ attempts: 1 }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("waits out a dead instance's claim and a retry's delay, and skips an event given up on", async () => {
    const app = await startApp(env());
    try {
      // Each written in the state it is found in (one statement, so never seen before it):
      // a killed instance's claim with its lease still running, a failed attempt waiting for
      // its retry, and an event given up on after its last attempt.
      const inState = async (type: string, state: string) => {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO outbox_events (organization_id, event_type, payload, attempts, ${state})
           VALUES (1, $1, '{}', $2, $3) RETURNING id`,
          [
            type,
            state === 'failed_at' ? 8 : 1,
            state === 'failed_at' ? new Date() : new Date(Date.now() + 4_000),
          ],
        );
        return rows[0].id;
      };
      const claimed = await inState('test.claimed', 'claimed_until');
      const retried = await inState('test.retried', 'next_attempt_at');
      const givenUp = await inState('test.given_up', 'failed_at');
      // Rows written in the same moment as these (and committed after) are handled meanwhile.
      const later = await writeEvent(db, 'test.later', true);
      await eventually(async () => (await processedAt(db, later)) ?? undefined);
      expect(await processedAt(db, claimed)).toBeNull();
      expect(await processedAt(db, retried)).toBeNull();

      await eventually(async () => (await processedAt(db, claimed)) ?? undefined, 10_000);
      await eventually(async () => (await processedAt(db, retried)) ?? undefined, 10_000);
      const { rows } = await db.query<{ id: string; attempts: number }>(
        'SELECT id, attempts FROM outbox_events WHERE id = ANY($1::bigint[]) ORDER BY id',
        [[claimed, retried]],
      );
      expect(rows.map((row) => row.attempts)).toEqual([2, 2]);
      expect(await processedAt(db, givenUp)).toBeNull();
    } finally {
      await app.stop();
    }
  });
});
