import { nextDelay, parseRetryAfter } from './retry-schedule';

/** An endpoint failing every attempt this long is disabled (DESIGN section 6). */
export const FAILING_DISABLE_MS = 5 * 24 * 3_600_000;

/** What one attempt's response was, as logged. */
export interface AttemptReport {
  /** 1-based number of the attempt just made. */
  attempt: number;
  statusCode: number | null;
  /** The logged error (a network error, a timeout, "redirect not followed"), or null. */
  error: string | null;
  /** The response's `Retry-After` header, if any. */
  retryAfter?: string;
}

/** What becomes of a delivery after an attempt, and of its endpoint. */
export type AttemptOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; retryInMs: number }
  | { status: 'failed'; disable?: 'gone' | 'failing' };

/** A 2xx answer (a response, so no network error was logged with it). */
export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** The error logged for a response that is not one (a redirect is not followed), else null. */
export function responseError(statusCode: number | null, error?: string): string | null {
  if (error) return error;
  return statusCode !== null && statusCode >= 300 && statusCode < 400
    ? 'redirect not followed'
    : null;
}

/**
 * The delivery policy of DESIGN section 6, without side effects: a 2xx settles the delivery; a
 * 410 fails it and disables the endpoint (`gone`), as does a failure when the endpoint has failed
 * every attempt for five days (`failing`); any other failure is retried on the schedule (a
 * `Retry-After` on 429 or 503 replaces the planned delay) until the schedule runs out, or fails at
 * once when retries are off (test pings).
 *
 * `failingSince` is the start of the endpoint's failure streak including this attempt (for a
 * failure it is set by now), `now` the time the decision is made.
 */
export function attemptOutcome(
  report: AttemptReport,
  context: {
    retry: boolean;
    schedule: number[];
    failingSince: Date | null;
    now: number;
    random?: () => number;
  },
): AttemptOutcome {
  if (isSuccess(report.statusCode)) return { status: 'succeeded' };
  const code = report.statusCode;
  if (code === 410) return { status: 'failed', disable: 'gone' };
  const failingFor = context.failingSince ? context.now - context.failingSince.getTime() : 0;
  if (failingFor >= FAILING_DISABLE_MS) return { status: 'failed', disable: 'failing' };
  if (!context.retry) return { status: 'failed' };
  const throttled = code === 429 || code === 503;
  const delay = nextDelay(
    report.attempt,
    context.schedule,
    throttled ? parseRetryAfter(report.retryAfter, context.now) : undefined,
    context.random,
  );
  return delay === undefined ? { status: 'failed' } : { status: 'pending', retryInMs: delay };
}
