import { toCsv } from '../../common/http/csv';
import { daysBetween, isLocalDate, reportRange } from './report-range';

describe('reportRange', () => {
  it('covers whole days in the zone, across a daylight-saving change', () => {
    const range = reportRange('Europe/Berlin', '2026-03-28', '2026-03-29');
    expect(range.days).toEqual(['2026-03-28', '2026-03-29']);
    expect(range.start.toISOString()).toBe('2026-03-27T23:00:00.000Z');
    // 29 March has 23 hours in Berlin.
    expect(range.end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('checks dates and counts days', () => {
    expect(isLocalDate('2026-02-30')).toBe(false);
    expect(isLocalDate('2026-02-28')).toBe(true);
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysBetween('2026-01-02', '2026-01-01')).toBe(0);
  });
});

describe('toCsv', () => {
  it('quotes what needs it and defuses formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 1],
          ['=SUM(A1)', null],
          ['say "hi"', 2.5],
        ],
      ),
    ).toBe('a,b\r\n"x,y",1\r\n"\'=SUM(A1)",\r\n"say ""hi""",2.5\r\n');
  });
});
