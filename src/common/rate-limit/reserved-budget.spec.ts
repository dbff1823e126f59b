import type { RateLimitStore, Reservation } from './rate-limit.store';
import { HOLD_MS, ReservedBudget } from './reserved-budget';

/** One shared counter, as the table or Redis keeps it: never past the limit; a later tick. */
function sharedCounter(clock: { now: number }) {
  const windows = new Map<string, { hits: number; resetAt: number }>();
  const calls = { take: 0, giveBack: 0 };
  const store: RateLimitStore = {
    hit: () => Promise.reject(new Error('not used')),
    async take(key, wanted, limit, windowMs): Promise<Reservation> {
      await new Promise((resolve) => setImmediate(resolve));
      calls.take += 1;
      let row = windows.get(key);
      if (!row || row.resetAt <= clock.now) {
        row = { hits: 0, resetAt: clock.now + windowMs };
        windows.set(key, row);
      }
      const granted = Math.max(0, Math.min(wanted, limit - row.hits));
      row.hits += granted;
      return {
        granted,
        hits: row.hits,
        resetAt: new Date(row.resetAt),
        window: String(row.resetAt),
      };
    },
    async giveBack(key, hits, window) {
      await new Promise((resolve) => setImmediate(resolve));
      calls.giveBack += 1;
      const row = windows.get(key);
      if (row && String(row.resetAt) === window && row.resetAt > clock.now) {
        row.hits = Math.max(0, row.hits - hits);
      }
    },
  };
  return { store, calls, hits: (key: string) => windows.get(key)?.hits ?? 0 };
}

describe('ReservedBudget', () => {
  const budgets: ReservedBudget[] = [];
  afterEach(async () => {
    await Promise.all(budgets.splice(0).map((budget) => budget.beforeApplicationShutdown()));
  });

  function instances(count: number, clock: { now: number }, store: RateLimitStore) {
    const made = Array.from({ length: count }, () => new ReservedBudget(store, () => clock.now));
    budgets.push(...made);
    return made;
  }

  it('lets exactly the limit through over three instances, round robin, each place once', async () => {
    const clock = { now: 1_000_000 };
    const shared = sharedCounter(clock);
    const [a, b, c] = instances(3, clock, shared.store);
    const results = [];
    for (let i = 0; i < 180; i += 1) {
      clock.now += 2;
      results.push(await [a, b, c][i % 3].hit('api-key:1', 120, 60_000));
    }
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(120);
    expect(new Set(allowed.map((r) => r.count)).size).toBe(120);
    expect(Math.max(...allowed.map((r) => r.count))).toBe(120);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
  });

  it('takes budget ahead far from the limit: a busy key costs a fraction of a round trip', async () => {
    const clock = { now: 2_000_000 };
    const shared = sharedCounter(clock);
    const [a] = instances(1, clock, shared.store);
    for (let i = 0; i < 2000; i += 1) {
      clock.now += 1;
      expect((await a.hit('api-key:2', 1_000_000, 60_000)).allowed).toBe(true);
    }
    expect(shared.calls.take).toBeLessThan(200);
    // What it holds beyond its use is given back after HOLD_MS.
    expect(shared.hits('api-key:2')).toBeGreaterThan(2000);
    clock.now += HOLD_MS;
    await a.sweep();
    expect(shared.hits('api-key:2')).toBe(2000);
  });

  it('never goes past the limit with uneven traffic, and budget one instance holds goes to another', async () => {
    const clock = { now: 3_000_000 };
    const shared = sharedCounter(clock);
    const [a, b] = instances(2, clock, shared.store);
    let allowed = 0;
    // Busy on A, a trickle on B, and bursts at once on both.
    for (let round = 0; round < 30; round += 1) {
      clock.now += 10;
      const burst = await Promise.all([
        ...Array.from({ length: 4 }, () => a.hit('api-key:3', 100, 60_000)),
        b.hit('api-key:3', 100, 60_000),
      ]);
      allowed += burst.filter((r) => r.allowed).length;
    }
    expect(allowed).toBeLessThanOrEqual(100);
    // B stops; what B took and did not use comes back within HOLD_MS, and A gets all of it.
    clock.now += HOLD_MS;
    await Promise.all([a.sweep(), b.sweep()]);
    for (;;) {
      clock.now += 1;
      if (!(await a.hit('api-key:3', 100, 60_000)).allowed) break;
      allowed += 1;
    }
    expect(allowed).toBe(100);
  });

  it('starts a new window from nothing, and gives nothing back to it', async () => {
    const clock = { now: 4_000_000 };
    const shared = sharedCounter(clock);
    const [a] = instances(1, clock, shared.store);
    for (let i = 0; i < 5; i += 1) expect((await a.hit('k', 5, 1_000)).allowed).toBe(true);
    expect((await a.hit('k', 5, 1_000)).allowed).toBe(false);
    clock.now += 1_000;
    const fresh = await a.hit('k', 5, 1_000);
    expect(fresh).toMatchObject({ allowed: true, count: 1, remaining: 4 });
  });
});
