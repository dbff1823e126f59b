/** Attempts per outbox event: 1 s, 2 s, 4 s ... apart, then given up (logged, kept a week). */
export const OUTBOX_ATTEMPTS = 8;

/** The wait before the attempt after failed attempt `attempt` (1-based); undefined after the last. */
export function outboxRetryDelay(attempt: number): number | undefined {
  return attempt >= OUTBOX_ATTEMPTS ? undefined : 1000 * 2 ** (attempt - 1);
}
