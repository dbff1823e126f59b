import { DateTime } from 'luxon';

export interface ReportRange {
  timezone: string;
  from: string;
  to: string;
  /** The first instant of `from` and the first instant after `to`, in the zone. */
  start: Date;
  end: Date;
  days: string[];
}

export const MAX_REPORT_DAYS = 366;

/** A calendar date `YYYY-MM-DD` that exists. */
export function isLocalDate(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    DateTime.fromISO(value, { zone: 'UTC' }).isValid
  );
}

/**
 * The days from `from` to `to` (both included) as the zone sees them: days are 23 or 25 hours
 * across a daylight-saving change, and the range's instants follow.
 */
export function reportRange(timezone: string, from: string, to: string): ReportRange {
  const first = DateTime.fromISO(from, { zone: timezone }).startOf('day');
  const last = DateTime.fromISO(to, { zone: timezone }).startOf('day');
  const days: string[] = [];
  for (let day = first; day <= last; day = day.plus({ days: 1 })) days.push(day.toISODate() ?? '');
  return {
    timezone,
    from,
    to,
    start: first.toJSDate(),
    end: last.plus({ days: 1 }).toJSDate(),
    days,
  };
}

/** Days between two dates, both included (0 or less when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  const a = DateTime.fromISO(from, { zone: 'UTC' });
  const b = DateTime.fromISO(to, { zone: 'UTC' });
  return Math.round(b.diff(a, 'days').days) + 1;
}
