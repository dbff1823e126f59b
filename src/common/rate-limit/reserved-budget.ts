import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { RateLimitResult, RateLimitStore } from './rate-limit.store';

/** Budget taken and not used is given back after this long (and on shutdown). */
export const HOLD_MS = 1_000;
/** The most hits one instance takes ahead for a key. */
const MAX_AHEAD = 64;
/** Hits taken ahead cover about this much of the key's recent traffic on this instance. */
const AHEAD_MS = 100;
/** Never take ahead more than this share of what is left of the window's budget. */
const AHEAD_SHARE = 8;

interface Held {
  /** The next place in the window's count to hand out, and the last one held. */
  next: number;
  last: number;
  resetAt: number;
  window: string;
  takenAt: number;
  limit: number;
}

/** The key's count the last time this instance asked, and the window it was in. */
interface Known {
  hits: number;
  resetAt: number;
}

interface Waiter {
  limit: number;
  resolve: (result: RateLimitResult) => void;
  reject: (error: unknown) => void;
}

interface Rate {
  second: number;
  count: number;
  previous: number;
}

/**
 * A per-key budget shared by every instance (issue 33), without a round trip per request: an
 * instance takes hits from the shared counter ahead of need, as many as about 100 ms of the key's
 * recent traffic here, never more than an eighth of what is left (so near the limit it takes one
 * at a time), and gives back what it did not use within HOLD_MS. The store never counts past the
 * limit, so the hits allowed over all instances never exceed it, and budget given back is
 * allowed again at once: traffic spread over instances gets all of it. Each request gets its own
 * place in the window's count, so its headers are exact.
 */
export class ReservedBudget implements BeforeApplicationShutdown {
  private readonly held = new Map<string, Held>();
  private readonly known = new Map<string, Known>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly inFlight = new Set<string>();
  private readonly rates = new Map<string, Rate>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), HOLD_MS / 2);
    this.sweeper.unref();
  }

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    this.count(key);
    const now = this.now();
    const held = this.held.get(key);
    if (held && !this.waiting.has(key) && usable(held, limit, now)) {
      return Promise.resolve(allowed(held.next++, limit, held.resetAt));
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ limit, resolve, reject });
      else this.waiting.set(key, [{ limit, resolve, reject }]);
      if (!this.inFlight.has(key)) void this.refill(key, windowMs);
    });
  }

  /** Gives back every hit held (the instance stops), while the database is still there. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.held.keys()].map((key) => this.release(key)));
  }

  /** Serves the requests waiting for `key` from what is held, then from a new reservation. */
  private async refill(key: string, windowMs: number): Promise<void> {
    this.inFlight.add(key);
    const waiters = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    try {
      const now = this.now();
      let held = this.held.get(key);
      const limit = waiters[0]?.limit ?? held?.limit ?? 1;
      if (held && !usable(held, limit, now)) {
        await this.release(key);
        held = undefined;
      }
      let served = 0;
      while (held && served < waiters.length && held.next <= held.last) {
        waiters[served++].resolve(allowed(held.next++, limit, held.resetAt));
      }
      if (served === waiters.length) return;
      const needed = waiters.length - served;
      const known = this.known.get(key);
      const left = limit - (known && known.resetAt > now ? known.hits : 0);
      const ahead = Math.min(
        MAX_AHEAD,
        Math.ceil((this.rate(key) * AHEAD_MS) / 1000),
        Math.floor(Math.max(0, left - needed) / AHEAD_SHARE),
      );
      const taken = await this.store.take(key, needed + ahead, limit, windowMs);
      const first = taken.hits - taken.granted + 1;
      const resetAt = taken.resetAt.getTime();
      this.known.set(key, { hits: taken.hits, resetAt });
      for (let i = 0; i < needed; i += 1) {
        const waiter = waiters[served + i];
        waiter.resolve(
          i < taken.granted ? allowed(first + i, limit, resetAt) : refused(limit, resetAt),
        );
      }
      if (taken.granted > needed) {
        this.held.set(key, {
          next: first + needed,
          last: taken.hits,
          resetAt,
          window: taken.window,
          takenAt: this.now(),
          limit,
        });
      } else {
        this.held.delete(key);
      }
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight.delete(key);
      if (this.waiting.has(key)) void this.refill(key, windowMs);
    }
  }

  /** Gives back what is held for `key` and not used, if its window is still running. */
  private async release(key: string): Promise<void> {
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    const unused = held.last - held.next + 1;
    if (unused > 0 && held.resetAt > this.now()) {
      await this.store.giveBack(key, unused, held.window).catch(() => undefined);
    }
  }

  /** Gives back budget held past HOLD_MS (every HOLD_MS / 2 by itself). */
  async sweep(): Promise<void> {
    const now = this.now();
    const stale: string[] = [];
    for (const [key, held] of this.held) {
      if (!this.inFlight.has(key) && now - held.takenAt >= HOLD_MS) stale.push(key);
    }
    for (const [key, known] of this.known) {
      if (known.resetAt <= now) this.known.delete(key);
    }
    for (const [key, rate] of this.rates) {
      if (Math.floor(now / 1000) - rate.second > 2) this.rates.delete(key);
    }
    await Promise.all(stale.map((key) => this.release(key)));
  }

  /** Requests for `key` in the last whole second here (or this one, if busier so far). */
  private rate(key: string): number {
    const rate = this.rates.get(key);
    if (!rate) return 0;
    const second = Math.floor(this.now() / 1000);
    const previous =
      rate.second === second ? rate.previous : rate.second === second - 1 ? rate.count : 0;
    return Math.max(previous, rate.second === second ? rate.count : 0);
  }

  private count(key: string): void {
    const second = Math.floor(this.now() / 1000);
    const rate = this.rates.get(key);
    if (!rate) this.rates.set(key, { second, count: 1, previous: 0 });
    else if (rate.second === second) rate.count += 1;
    else {
      rate.previous = rate.second === second - 1 ? rate.count : 0;
      rate.second = second;
      rate.count = 1;
    }
  }
}

function usable(held: Held, limit: number, now: number): boolean {
  return (
    held.next <= held.last &&
    held.limit === limit &&
    now < held.resetAt &&
    now - held.takenAt < HOLD_MS
  );
}

function allowed(place: number, limit: number, resetAt: number): RateLimitResult {
  return {
    count: place,
    limit,
    remaining: Math.max(0, limit - place),
    resetAt: new Date(resetAt),
    allowed: true,
  };
}

function refused(limit: number, resetAt: number): RateLimitResult {
  return { count: limit + 1, limit, remaining: 0, resetAt: new Date(resetAt), allowed: false };
}
