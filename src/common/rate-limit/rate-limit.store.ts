import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { sql } from '../../database/sql';

export interface RateLimitResult {
  /** Hits in the current window, this one included. */
  count: number;
  limit: number;
  remaining: number;
  /** When the window ends. */
  resetAt: Date;
  allowed: boolean;
}

/**
 * Fixed-window counters shared by every instance: in Redis when it is configured, otherwise in an
 * UNLOGGED PostgreSQL table (fast, and losing counters on a crash is harmless).
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

function result(count: number, limit: number, resetAt: Date): RateLimitResult {
  return { count, limit, remaining: Math.max(0, limit - count), resetAt, allowed: count <= limit };
}

interface Waiter {
  limit: number;
  resolve: (result: RateLimitResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Every hit is one increment of the key's row, so the count is exact across instances. Hits on
 * the same key that arrive while this instance's previous statement for it is still running are
 * sent together as one `+n` (they would only have queued on the row lock), and each gets its own
 * place in the count: a burst of n costs one round trip instead of n, and no hit is dropped.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  /** Hits waiting for the statement in flight for their key and window. */
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly inFlight = new Set<string>();

  constructor(private readonly dataSource: Pick<DataSource, 'query'>) {}

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return new Promise((resolve, reject) => {
      const slot = `${windowMs}:${key}`;
      const queue = this.waiting.get(slot);
      if (queue) queue.push({ limit, resolve, reject });
      else this.waiting.set(slot, [{ limit, resolve, reject }]);
      if (!this.inFlight.has(slot)) void this.send(slot, key, windowMs);
    });
  }

  private async send(slot: string, key: string, windowMs: number): Promise<void> {
    const waiters = this.waiting.get(slot) ?? [];
    this.waiting.delete(slot);
    this.inFlight.add(slot);
    try {
      const rows = await sql<{ hits: number; reset_at: Date }>(
        this.dataSource,
        `INSERT INTO rate_limit_hits AS r (key, hits, reset_at)
         VALUES ($1, $3, now() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.reset_at <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
           reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
         RETURNING hits, reset_at`,
        [key, windowMs, waiters.length],
        'rate_limit_hit',
      );
      const resetAt = new Date(rows[0].reset_at);
      const first = rows[0].hits - waiters.length + 1;
      waiters.forEach((waiter, i) => waiter.resolve(result(first + i, waiter.limit, resetAt)));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight.delete(slot);
      if (this.waiting.has(slot)) void this.send(slot, key, windowMs);
    }
  }
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `ratelimit:${key}`, windowMs)) as [
      number,
      number,
    ];
    return result(count, limit, new Date(Date.now() + ttl));
  }
}
