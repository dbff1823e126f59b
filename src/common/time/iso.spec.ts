import { iso } from './iso';

describe('iso', () => {
  it('writes a Date, its text and epoch milliseconds the same way', () => {
    const moment = new Date('2026-05-01T09:30:00.000Z');
    expect(iso(moment)).toBe('2026-05-01T09:30:00.000Z');
    expect(iso('2026-05-01 11:30:00+02')).toBe('2026-05-01T09:30:00.000Z');
    expect(iso(moment.getTime())).toBe('2026-05-01T09:30:00.000Z');
  });

  it('keeps a missing moment null', () => {
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
  });
});
