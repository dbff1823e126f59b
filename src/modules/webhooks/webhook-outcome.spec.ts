import { STANDARD_SCHEDULE_MS } from './retry-schedule';
import { attemptOutcome, FAILING_DISABLE_MS, isSuccess, responseError } from './webhook-outcome';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const context = (changes: Partial<Parameters<typeof attemptOutcome>[1]> = {}) => ({
  retry: true,
  schedule: STANDARD_SCHEDULE_MS,
  failingSince: null,
  now: NOW,
  random: () => 0.5,
  ...changes,
});
const report = (statusCode: number | null, changes: { attempt?: number; error?: string } = {}) => ({
  attempt: changes.attempt ?? 1,
  statusCode,
  error: responseError(statusCode, changes.error),
});

describe('webhook attempt outcome', () => {
  it('settles a delivery on any 2xx', () => {
    for (const code of [200, 201, 204, 299]) {
      expect(attemptOutcome(report(code), context())).toEqual({ status: 'succeeded' });
    }
    expect(isSuccess(204)).toBe(true);
    expect(isSuccess(null)).toBe(false);
    expect(isSuccess(300)).toBe(false);
  });

  it('retries other answers and network errors on the schedule', () => {
    expect(attemptOutcome(report(500), context())).toEqual({ status: 'pending', retryInMs: 5_000 });
    expect(attemptOutcome(report(404, { attempt: 2 }), context())).toEqual({
      status: 'pending',
      retryInMs: 300_000,
    });
    expect(attemptOutcome(report(null, { error: 'ECONNREFUSED' }), context())).toEqual({
      status: 'pending',
      retryInMs: 5_000,
    });
  });

  it('treats a redirect as a failure, logged as not followed', () => {
    expect(report(301).error).toBe('redirect not followed');
    expect(report(200).error).toBeNull();
    expect(report(null, { error: 'timed out after 10 ms' }).error).toBe('timed out after 10 ms');
    expect(attemptOutcome(report(302), context())).toEqual({ status: 'pending', retryInMs: 5_000 });
  });

  it('fails the delivery once the schedule is used up, or at once without retries', () => {
    expect(attemptOutcome(report(500, { attempt: 10 }), context())).toEqual({ status: 'failed' });
    expect(attemptOutcome(report(500, { attempt: 3 }), context({ schedule: [100, 200] }))).toEqual({
      status: 'failed',
    });
    expect(attemptOutcome(report(500), context({ retry: false }))).toEqual({ status: 'failed' });
    expect(attemptOutcome(report(200), context({ retry: false }))).toEqual({
      status: 'succeeded',
    });
  });

  it('lets Retry-After of a 429 or 503 replace the planned delay, and no other status', () => {
    const after = { retryAfter: '120' };
    expect(attemptOutcome({ ...report(429), ...after }, context())).toEqual({
      status: 'pending',
      retryInMs: 120_000,
    });
    expect(attemptOutcome({ ...report(503), ...after }, context())).toEqual({
      status: 'pending',
      retryInMs: 120_000,
    });
    expect(
      attemptOutcome(
        { ...report(503), retryAfter: new Date(NOW + 30_000).toUTCString() },
        context(),
      ),
    ).toEqual({ status: 'pending', retryInMs: 30_000 });
    expect(attemptOutcome({ ...report(500), ...after }, context())).toEqual({
      status: 'pending',
      retryInMs: 5_000,
    });
    // Not past the last attempt, whatever the header says.
    expect(attemptOutcome({ ...report(429, { attempt: 10 }), ...after }, context())).toEqual({
      status: 'failed',
    });
  });

  it('disables the endpoint on 410 Gone, even without retries', () => {
    expect(attemptOutcome(report(410), context())).toEqual({ status: 'failed', disable: 'gone' });
    expect(attemptOutcome(report(410), context({ retry: false }))).toEqual({
      status: 'failed',
      disable: 'gone',
    });
  });

  it('disables an endpoint that has failed every attempt for five days', () => {
    const since = (ms: number) => new Date(NOW - ms);
    expect(
      attemptOutcome(report(500), context({ failingSince: since(FAILING_DISABLE_MS) })),
    ).toEqual({ status: 'failed', disable: 'failing' });
    expect(
      attemptOutcome(report(500), context({ failingSince: since(FAILING_DISABLE_MS - 1) })),
    ).toEqual({ status: 'pending', retryInMs: 5_000 });
    // A success ends the streak whatever its age.
    expect(
      attemptOutcome(report(200), context({ failingSince: since(FAILING_DISABLE_MS * 2) })),
    ).toEqual({ status: 'succeeded' });
  });
});
