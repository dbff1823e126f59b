import { nextDelay, parseRetryAfter, STANDARD_SCHEDULE_MS } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('follows the schedule with at most 10 % jitter and stops after the last attempt', () => {
    expect(nextDelay(1, STANDARD_SCHEDULE_MS, undefined, () => 0.5)).toBe(5_000);
    expect(nextDelay(1, STANDARD_SCHEDULE_MS, undefined, () => 0)).toBe(4_500);
    expect(nextDelay(1, STANDARD_SCHEDULE_MS, undefined, () => 1)).toBe(5_500);
    expect(nextDelay(2, STANDARD_SCHEDULE_MS, undefined, () => 0.5)).toBe(300_000);
    expect(nextDelay(9, STANDARD_SCHEDULE_MS, undefined, () => 0.5)).toBe(86_400_000);
    expect(nextDelay(10, STANDARD_SCHEDULE_MS)).toBeUndefined();
    expect(nextDelay(3, [100, 200])).toBeUndefined();
  });

  it('lets Retry-After replace the planned delay, capped at a day', () => {
    expect(nextDelay(1, [100, 200], 7_000)).toBe(7_000);
    expect(nextDelay(1, [100], 10 * 86_400_000)).toBe(86_400_000);
    expect(nextDelay(2, [100], 7_000)).toBeUndefined();
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
