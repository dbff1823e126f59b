import { PostgresRateLimitStore } from './rate-limit.store';

/** A stand-in for the counter table: one row per key, each statement answered on a later tick. */
function fakeDatabase() {
  const rows = new Map<string, { hits: number; reset_at: Date }>();
  const statements: { key: string; hits: number }[] = [];
  let failNext = false;
  return {
    statements,
    failNext: () => (failNext = true),
    query: async (_text: string, [key, windowMs, hits]: [string, number, number]) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      statements.push({ key, hits });
      const now = Date.now();
      const row = rows.get(key);
      const next =
        !row || row.reset_at.getTime() <= now
          ? { hits, reset_at: new Date(now + windowMs) }
          : { hits: row.hits + hits, reset_at: row.reset_at };
      rows.set(key, next);
      return [{ ...next }];
    },
  };
}

describe('PostgresRateLimitStore', () => {
  it('gives each hit of a burst its own place in the count, in one statement per round trip', async () => {
    const db = fakeDatabase();
    const store = new PostgresRateLimitStore(db as never);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.hit('api-key:1', 5, 60_000)),
    );
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(results.map((r) => r.allowed)).toEqual([
      ...Array(5).fill(true),
      ...Array(5).fill(false),
    ]);
    expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0, 0, 0]);
    // The first hit goes alone; the nine that arrived meanwhile go together.
    expect(db.statements).toEqual([
      { key: 'api-key:1', hits: 1 },
      { key: 'api-key:1', hits: 9 },
    ]);
  });

  it('keeps keys apart and sends one statement per hit when hits come one at a time', async () => {
    const db = fakeDatabase();
    const store = new PostgresRateLimitStore(db as never);
    expect((await store.hit('a', 2, 60_000)).count).toBe(1);
    expect((await store.hit('b', 2, 60_000)).count).toBe(1);
    expect((await store.hit('a', 2, 60_000)).count).toBe(2);
    expect(db.statements).toHaveLength(3);
  });

  it('fails the hits of a failed statement and goes on with the next ones', async () => {
    const db = fakeDatabase();
    const store = new PostgresRateLimitStore(db as never);
    db.failNext();
    const failed = store.hit('a', 5, 60_000);
    const queued = store.hit('a', 5, 60_000);
    await expect(failed).rejects.toThrow('connection lost');
    expect((await queued).count).toBe(1);
  });
});
