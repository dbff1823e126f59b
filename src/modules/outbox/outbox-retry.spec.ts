import { OUTBOX_ATTEMPTS, outboxRetryDelay } from './outbox-retry';

describe('outbox retry delays', () => {
  it('doubles from one second and stops after the last attempt', () => {
    expect([1, 2, 3, 7].map(outboxRetryDelay)).toEqual([1000, 2000, 4000, 64_000]);
    expect(outboxRetryDelay(OUTBOX_ATTEMPTS)).toBeUndefined();
    expect(OUTBOX_ATTEMPTS).toBe(8);
  });
});
