import { addDays, localParts, mondayOf, weekOf } from './week';

describe('appointment weeks', () => {
  it('starts weeks on Monday, across months and years', () => {
    expect(mondayOf('2027-03-31')).toBe('2027-03-29');
    expect(mondayOf('2027-03-29')).toBe('2027-03-29');
    expect(mondayOf('2027-04-04')).toBe('2027-03-29');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(weekOf('2026-12-28')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    // The spring change in Europe does not shift a date.
    expect(addDays('2027-03-27', 1)).toBe('2027-03-28');
    expect(addDays('2027-03-28', 1)).toBe('2027-03-29');
  });

  it("reads the site's local date and time off the offset form", () => {
    expect(localParts('2027-03-29T23:30:00-07:00')).toEqual({ date: '2027-03-29', time: '23:30' });
  });
});
