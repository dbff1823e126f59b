import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ReservedBudget } from './reserved-budget';

/**
 * @nestjs/throttler's storage on our shared counters (Redis or PostgreSQL), so all instances
 * agree; taken in reservations (ReservedBudget), so most requests need no round trip.
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly store: Pick<ReservedBudget, 'hit'>) {}

  async increment(key: string, ttl: number, limit: number) {
    const hit = await this.store.hit(key, limit, ttl);
    const timeToExpire = Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000));
    return {
      totalHits: hit.count,
      timeToExpire,
      isBlocked: !hit.allowed,
      timeToBlockExpire: hit.allowed ? 0 : timeToExpire,
    };
  }
}
