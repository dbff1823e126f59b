import { AppError } from '../errors/app-error';
import type { RateLimitStore } from './rate-limit.store';

/**
 * Counts one hit on `key`; past `limit` in the window, the 429 every throttle answers with
 * (`Too Many Attempts.`, `Retry-After` in whole seconds until the window ends).
 */
export async function rateLimited(
  store: RateLimitStore,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const hit = await store.hit(key, limit, windowMs);
  if (hit.allowed) return;
  throw tooManyAttempts(hit.resetAt.getTime() - Date.now());
}

export function tooManyAttempts(retryAfterMs: number): AppError {
  return new AppError('rate_limited', 'Too Many Attempts.', {
    reason: 'too_many_attempts',
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });
}
