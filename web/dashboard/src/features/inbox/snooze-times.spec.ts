import { snoozePresets, toLocalInput } from './snooze-times';

describe('snooze presets', () => {
  it('offers an hour on, tomorrow 9:00 and the next Monday 9:00', () => {
    // A Wednesday afternoon.
    const now = new Date(2026, 10, 25, 15, 30);
    const [hour, tomorrow, monday] = snoozePresets(now);
    expect(hour.until.getTime() - now.getTime()).toBe(3_600_000);
    expect(toLocalInput(tomorrow.until)).toBe('2026-11-26T09:00');
    expect(toLocalInput(monday.until)).toBe('2026-11-30T09:00');
  });

  it('takes Monday to mean next week on a Monday', () => {
    const now = new Date(2026, 10, 30, 8, 0);
    expect(toLocalInput(snoozePresets(now)[2].until)).toBe('2026-12-07T09:00');
  });
});
