import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

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

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly dataSource: DataSource) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const rows: { hits: number; reset_at: Date }[] = await this.dataSource.query(
      `INSERT INTO rate_limit_hits AS r (key, hits, reset_at)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [key, windowMs],
    );
    return result(rows[0].hits, limit, new Date(rows[0].reset_at));
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
