import { DateTime } from 'luxon';
import { minutesOf, WEEKDAYS, type WorkingHours } from '../../common/time/working-hours';

/**
 * The appointment slots of one local date of a site, computed in the site's time zone with luxon
 * (never by adding fixed hours to UTC). Framework-free, so it is unit-tested on its own.
 *
 * Slots start at the start of each working-hours range and then every `slotIntervalMinutes` of
 * local (wall-clock) time, and must end, `durationMinutes` of real time later, by the end of the
 * range. Across daylight-saving changes:
 * - a local time the clocks skip (Berlin's 02:00-03:00 on the last Sunday of March) has no slot,
 *   so that day has fewer;
 * - a local time the clocks show twice (02:00-03:00 on the last Sunday of October) has a slot at
 *   each occurrence, so that day has more; their labels carry the offset to tell them apart.
 */

export interface BookingRules {
  durationMinutes: number;
  bufferMinutes: number;
  slotIntervalMinutes: number;
  advanceDays: number;
  minNoticeHours: number;
  workingHours: WorkingHours;
}

/** A live appointment's time and the buffer after it: no other appointment may overlap it. */
export interface BlockedRange {
  start: Date;
  end: Date;
}

export interface Slot {
  startsAt: DateTime;
  endsAt: DateTime;
  label: string;
  available: boolean;
  status: 'available' | 'booked';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The start of `date` (`YYYY-MM-DD`) in `zone`, or undefined when it is not a calendar date. */
export function localDate(date: string, zone: string): DateTime | undefined {
  if (!DATE.test(date)) return undefined;
  const day = DateTime.fromISO(date, { zone });
  return day.isValid ? day.startOf('day') : undefined;
}

/**
 * The instants at which the clocks of `day`'s zone show `minutes` after midnight on that date:
 * none when a daylight-saving jump skips that time, two when the clocks go back over it.
 */
export function occurrences(day: DateTime, minutes: number): DateTime[] {
  const hour = Math.floor(minutes / 60);
  const minute = minutes % 60;
  const guess = DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour, minute },
    { zone: day.zone },
  );
  // luxon moves a skipped local time forward; that is not the time asked for.
  if (guess.day !== day.day || guess.hour !== hour || guess.minute !== minute) return [];
  return guess.getPossibleOffsets().sort((a, b) => a.toMillis() - b.toMillis());
}

/**
 * The instant a working-hours bound of `day` stands for: its first (an opening) or last (a
 * closing) occurrence; a bound the clocks skip stands for the moment they jump; `24:00` is the
 * next midnight.
 */
function boundary(day: DateTime, minutes: number, which: 'first' | 'last'): DateTime {
  for (let m = minutes; m < 24 * 60; m += 1) {
    const found = occurrences(day, m);
    if (found.length === 0) continue;
    return m === minutes && which === 'last' ? found[found.length - 1] : found[0];
  }
  return day.plus({ days: 1 }).startOf('day');
}

/** Whether `[start, end)` overlaps any blocked range. */
const overlapsAny = (start: number, end: number, blocked: BlockedRange[]): boolean =>
  blocked.some((range) => range.start.getTime() < end && start < range.end.getTime());

/** The last local date (YYYY-MM-DD, in `zone`) that can have slots: today plus `advanceDays`. */
export function lastBookableDate(
  rules: BookingRules,
  now: Date,
  zone: string | DateTime['zone'],
): string {
  return (
    DateTime.fromJSDate(now, { zone })
      .startOf('day')
      .plus({ days: rules.advanceDays })
      .toISODate() ?? ''
  );
}

/**
 * The slots of `day` (from `localDate`), in time order. Days before today or more than
 * `advanceDays` after it (in the site's zone) have none, nor does any time within
 * `minNoticeHours` of `now`. A slot is `booked` when it, with the buffer after it, would overlap
 * a live appointment and its buffer: exactly what the database's exclusion constraint refuses.
 */
export function daySlots(
  day: DateTime,
  rules: BookingRules,
  now: Date,
  blocked: BlockedRange[],
): Slot[] {
  const today = DateTime.fromJSDate(now, { zone: day.zone }).startOf('day');
  const date = day.toISODate() ?? '';
  if (date < (today.toISODate() ?? '') || date > lastBookableDate(rules, now, day.zone)) {
    return [];
  }

  const earliest = now.getTime() + rules.minNoticeHours * 3_600_000;
  const slots = new Map<number, Slot>();
  for (const range of rules.workingHours[WEEKDAYS[day.weekday - 1]]) {
    const from = minutesOf(range.start) ?? 0;
    const to = minutesOf(range.end, { allowMidnightEnd: true }) ?? 0;
    const opens = boundary(day, from, 'first').toMillis();
    const closes = boundary(day, to, 'last').toMillis();
    for (let minutes = from; minutes < to; minutes += rules.slotIntervalMinutes) {
      const found = occurrences(day, minutes);
      for (const startsAt of found) {
        const endsAt = startsAt.plus({ minutes: rules.durationMinutes });
        const start = startsAt.toMillis();
        if (start < opens || endsAt.toMillis() > closes || start < earliest) continue;
        const blockedUntil = endsAt.plus({ minutes: rules.bufferMinutes }).toMillis();
        const available = !overlapsAny(start, blockedUntil, blocked);
        slots.set(start, {
          startsAt,
          endsAt,
          label:
            found.length > 1
              ? `${startsAt.toFormat('HH:mm')} (${startsAt.toFormat('ZZ')})`
              : startsAt.toFormat('HH:mm'),
          available,
          status: available ? 'available' : 'booked',
        });
      }
    }
  }
  return [...slots.values()].sort((a, b) => a.startsAt.toMillis() - b.startsAt.toMillis());
}

/** ISO 8601 with the offset of the slot's zone, to the second: `2027-03-29T09:00:00+02:00`. */
export const isoWithOffset = (time: DateTime): string =>
  time.toISO({ suppressMilliseconds: true, includeOffset: true }) ?? '';

/** A human-readable date and time: `Monday, 29 March 2027, 09:00–09:30 (Europe/Berlin)`. */
export function formatAppointment(start: DateTime, end: DateTime): string {
  const local = start.setLocale('en');
  return `${local.toFormat('cccc, d LLLL yyyy, HH:mm')}–${end.toFormat('HH:mm')} (${start.zoneName ?? 'UTC'})`;
}

/** The range of instants whose appointments can matter for the slots of `day`. */
export function dayWindow(day: DateTime): { from: Date; to: Date } {
  // A slot late in the day plus its duration and buffer reaches into the next day.
  return { from: day.toJSDate(), to: day.plus({ days: 2 }).toJSDate() };
}
