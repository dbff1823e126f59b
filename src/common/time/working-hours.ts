/**
 * Weekly working hours of a site, in its local (wall-clock) time: for each weekday a list of
 * `HH:MM` ranges, `end` after `start` (`24:00` closes at midnight), sorted and not overlapping.
 * An empty list closes the day. Framework-free, so the rules are unit-tested on their own.
 */

/** In luxon's weekday order: `WEEKDAYS[dateTime.weekday - 1]`. */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TimeRange {
  start: string;
  end: string;
}

export type WorkingHours = Record<Weekday, TimeRange[]>;

/** How many ranges one day may have (a split shift, a lunch break, ... ). */
export const MAX_RANGES_PER_DAY = 12;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after local midnight of `HH:MM` (`24:00` is 1440); undefined when malformed. */
export function minutesOf(time: string, { allowMidnightEnd = false } = {}): number | undefined {
  if (allowMidnightEnd && time === '24:00') return 24 * 60;
  const match = TIME.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with a (partial) working-hours object sent by a client, one sentence per
 * problem, each naming the day and range (`working_hours.monday.1.end ...`). Empty when valid.
 */
export function workingHoursProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['working_hours must be an object keyed by weekday.'];
  const problems: string[] = [];
  for (const [day, ranges] of Object.entries(value)) {
    const path = `working_hours.${day}`;
    if (!(WEEKDAYS as readonly string[]).includes(day)) {
      problems.push(`${path} is not a weekday; use ${WEEKDAYS.join(', ')}.`);
      continue;
    }
    if (!Array.isArray(ranges)) {
      problems.push(`${path} must be a list of {start, end} ranges ([] closes the day).`);
      continue;
    }
    if (ranges.length > MAX_RANGES_PER_DAY) {
      problems.push(`${path} may have at most ${MAX_RANGES_PER_DAY} ranges.`);
      continue;
    }
    problems.push(...dayProblems(path, ranges));
  }
  return problems;
}

function dayProblems(path: string, ranges: unknown[]): string[] {
  const problems: string[] = [];
  const spans: { start: number; end: number; at: string }[] = [];
  ranges.forEach((range, index) => {
    const at = `${path}.${index}`;
    if (!isRecord(range)) {
      problems.push(`${at} must be an object with start and end.`);
      return;
    }
    const start = typeof range.start === 'string' ? minutesOf(range.start) : undefined;
    const end =
      typeof range.end === 'string' ? minutesOf(range.end, { allowMidnightEnd: true }) : undefined;
    if (start === undefined) problems.push(`${at}.start must be a time HH:MM (00:00 to 23:59).`);
    if (end === undefined) problems.push(`${at}.end must be a time HH:MM (00:01 to 24:00).`);
    if (start === undefined || end === undefined) return;
    if (end <= start) problems.push(`${at}.end must be after ${at}.start.`);
    else spans.push({ start, end, at });
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i += 1) {
    if (spans[i].start < spans[i - 1].end) {
      problems.push(`${spans[i].at} overlaps ${spans[i - 1].at}.`);
    }
  }
  return problems;
}

/**
 * The stored hours with the days a (validated) change names replaced; ranges are kept as
 * `{ start, end }` only, in time order.
 */
export function mergeWorkingHours(
  current: WorkingHours,
  change: Partial<Record<Weekday, TimeRange[]>>,
): WorkingHours {
  const merged = { ...current };
  for (const day of WEEKDAYS) {
    const ranges = change[day];
    if (ranges === undefined) continue;
    merged[day] = ranges
      .map(({ start, end }) => ({ start, end }))
      .sort((a, b) => (minutesOf(a.start) ?? 0) - (minutesOf(b.start) ?? 0));
  }
  return merged;
}

/** Every weekday present, in weekday order; a day missing from `stored` is closed. */
export function completeWorkingHours(stored: Partial<WorkingHours>): WorkingHours {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, stored[day] ?? []])) as WorkingHours;
}
