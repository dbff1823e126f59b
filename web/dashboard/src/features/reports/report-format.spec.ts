import { csvHref, formatDuration, formatRate, lastDays, reportQuery } from './report-format';

describe('report formatting', () => {
  it('counts the last days including today', () => {
    expect(lastDays(7, new Date(2026, 10, 23, 15, 0))).toEqual({
      from: '2026-11-17',
      to: '2026-11-23',
    });
    expect(lastDays(1, new Date(2026, 0, 1))).toEqual({ from: '2026-01-01', to: '2026-01-01' });
    expect(lastDays(30, new Date(2026, 2, 1))).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('writes durations the way people say them', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(44.6)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(100_800)).toBe('1 d 4 h');
  });

  it('writes rates as percentages', () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(1 / 3)).toBe('33.3%');
    expect(formatRate(1)).toBe('100.0%');
  });

  it('leaves empty filters out of the query and the CSV link', () => {
    const range = { from: '2026-11-01', to: '2026-11-30' };
    expect(reportQuery(range, undefined, undefined)).toEqual(range);
    const query = reportQuery(range, 3, 7);
    expect(query).toEqual({ ...range, site_id: 3, agent_id: 7 });
    expect(csvHref('csat', query)).toBe(
      '/api/agent/reports/csat.csv?from=2026-11-01&to=2026-11-30&site_id=3&agent_id=7',
    );
  });
});
