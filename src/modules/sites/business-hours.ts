import { DateTime } from 'luxon';
import { minutesOf, type TimeRange, type Weekday, WEEKDAYS } from '../../common/time/working-hours';

/** Whether the site is within its business hours now, and when it opens next if not. */
export interface BusinessHoursState {
  within: boolean;
  /** The next start of a range (an instant), when outside the hours; null when within or never. */
  nextOpenAt: Date | null;
}

/**
 * Reads weekly hours (wall-clock ranges in `zone`) at `now`. `null` hours are always open. A
 * range's start that falls in a daylight-saving gap is moved forward by luxon, like a slot.
 * Looks up to 8 days ahead, so a week with one open range still finds it.
 */
export function businessHoursAt(
  hours: Partial<Record<Weekday, TimeRange[]>> | null,
  zone: string,
  now: Date,
): BusinessHoursState {
  if (!hours) return { within: true, nextOpenAt: null };
  const local = DateTime.fromJSDate(now, { zone });
  const today = local.startOf('day');
  const at = (day: DateTime, time: string, end = false): DateTime => {
    const minutes = minutesOf(time, { allowMidnightEnd: end }) ?? 0;
    if (minutes >= 1440) return day.plus({ days: 1 }).startOf('day');
    return day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  };
  const nowMs = local.toMillis();
  for (const range of hours[WEEKDAYS[today.weekday - 1]] ?? []) {
    const start = at(today, range.start).toMillis();
    const end = at(today, range.end, true).toMillis();
    if (start <= nowMs && nowMs < end) return { within: true, nextOpenAt: null };
  }
  for (let offset = 0; offset <= 8; offset += 1) {
    const day = today.plus({ days: offset });
    const starts = (hours[WEEKDAYS[day.weekday - 1]] ?? [])
      .map((range) => at(day, range.start).toMillis())
      .filter((start) => start > nowMs)
      .sort((a, b) => a - b);
    if (starts.length > 0) return { within: false, nextOpenAt: new Date(starts[0]) };
  }
  return { within: false, nextOpenAt: null };
}
