import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';

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
  /**
   * Takes up to `wanted` hits of the key's window, never past `limit`: answers how many were
   * granted and the count after them (the granted hits are the last `granted` places of it).
   */
  take(key: string, wanted: number, limit: number, windowMs: number): Promise<Reservation>;
  /** Gives back hits taken and not used, if the window they were taken in is still the one. */
  giveBack(key: string, hits: number, window: string): Promise<void>;
}

export interface Reservation {
  granted: number;
  /** The window's count after this reservation. */
  hits: number;
  resetAt: Date;
  /** Which window it was (its end, as the store's own clock writes it). */
  window: string;
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
      const rows = await sql(
        this.dataSource,
        query<{
          hits: number;
          reset_at: Date;
        }>`INSERT INTO rate_limit_hits AS r (key, hits, reset_at)
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

  async take(key: string, wanted: number, limit: number, windowMs: number): Promise<Reservation> {
    const [row] = await sql(
      this.dataSource,
      TAKE,
      [key, wanted, limit, windowMs],
      'rate_limit_take',
    );
    return {
      granted: row.granted,
      hits: row.hits,
      resetAt: new Date(row.reset_at),
      window: row.window_end,
    };
  }

  async giveBack(key: string, hits: number, window: string): Promise<void> {
    await sql(this.dataSource, GIVE_BACK, [key, hits, window], 'rate_limit_give_back');
  }
}

/** Hits taken in reservations: the statement of `PostgresRateLimitStore.take`. */
const TAKE = handTyped<{ hits: number; granted: number; reset_at: Date; window_end: string }>`
  INSERT INTO rate_limit_hits AS r (key, hits, granted, reset_at)
  VALUES ($1, LEAST($2::int, $3::int), LEAST($2::int, $3::int), now() + $4::int * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET
    granted = CASE WHEN r.reset_at <= now() THEN LEAST($2::int, $3::int)
                   ELSE GREATEST(0, LEAST($2::int, $3::int - r.hits)) END,
    hits = CASE WHEN r.reset_at <= now() THEN LEAST($2::int, $3::int)
                ELSE r.hits + GREATEST(0, LEAST($2::int, $3::int - r.hits)) END,
    reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
  RETURNING hits, granted, reset_at, reset_at::text AS window_end`;

/** Hits given back to the window they were taken in (a later window starts from nothing). */
const GIVE_BACK = query`
  UPDATE rate_limit_hits SET hits = GREATEST(0, hits - $2::int)
  WHERE key = $1 AND reset_at = $3::timestamptz AND reset_at > now()`;

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** `take` in Redis: the count of a live window, never past the limit (ARGV: ms, wanted, limit). */
const TAKE_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
local hits = 0
if ttl > 0 then hits = tonumber(redis.call('GET', KEYS[1]) or '0') end
local granted = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - hits))
if ttl <= 0 then
  redis.call('SET', KEYS[1], granted, 'PX', ARGV[1])
  ttl = tonumber(ARGV[1])
elseif granted > 0 then
  redis.call('INCRBY', KEYS[1], granted)
end
local time = redis.call('TIME')
local ends = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + ttl
return {hits + granted, granted, ttl, ends}`;

/**
 * Gives back to the window the hits were taken in (ARGV: hits, its end by Redis's clock; a
 * later window ends at least a window's length after it, so a few milliseconds of rounding
 * never mistake one for the other).
 */
const GIVE_BACK_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
local time = redis.call('TIME')
local ends = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + ttl
if math.abs(ends - tonumber(ARGV[2])) > 50 then return 0 end
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('SET', KEYS[1], math.max(0, hits - tonumber(ARGV[1])), 'KEEPTTL')
return 1`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `ratelimit:${key}`, windowMs)) as [
      number,
      number,
    ];
    return result(count, limit, new Date(Date.now() + ttl));
  }

  async take(key: string, wanted: number, limit: number, windowMs: number): Promise<Reservation> {
    const [hits, granted, ttl, ends] = (await this.redis.eval(
      TAKE_SCRIPT,
      1,
      `ratelimit:${key}`,
      windowMs,
      wanted,
      limit,
    )) as [number, number, number, number];
    return { granted, hits, resetAt: new Date(Date.now() + ttl), window: String(ends) };
  }

  async giveBack(key: string, hits: number, window: string): Promise<void> {
    await this.redis.eval(GIVE_BACK_SCRIPT, 1, `ratelimit:${key}`, hits, window);
  }
}
