/**
 * When the next attempt of a failed delivery runs (DESIGN section 6): the Standard Webhooks
 * schedule (attempt 1 immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h) or
 * WEBHOOK_RETRY_SCHEDULE_MS, with ±10 % jitter so retries of many deliveries spread out. A
 * `Retry-After` on 429 or 503 replaces the scheduled delay (capped at a day).
 */
export const STANDARD_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

const DAY_MS = 24 * 3_600_000;

/**
 * The delay before attempt `attempt + 1` after attempt `attempt` (1-based) failed, or undefined
 * when that was the last attempt.
 */
export function nextDelay(
  attempt: number,
  schedule: number[],
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  const planned = schedule[attempt - 1];
  if (planned === undefined) return undefined;
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, 0), DAY_MS);
  return Math.round(planned * (0.9 + 0.2 * random()));
}

/** A `Retry-After` header (seconds or an HTTP date) in milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
