/** Calendar dates as `YYYY-MM-DD` (a site's local dates: no zone of their own). */
const pad = (n: number) => String(n).padStart(2, '0');

export function dateString(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The date `days` after (or before) `date`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return dateString(new Date(y, m - 1, d + days));
}

/** The Monday of the week `date` is in (weeks start on Monday, as ISO 8601 has them). */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const weekday = (new Date(y, m - 1, d).getDay() + 6) % 7;
  return addDays(date, -weekday);
}

/** The seven dates of the week starting `monday`. */
export function weekOf(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/**
 * The local date and time of an instant written with its offset (`2027-03-29T09:00:00+02:00`,
 * as the API writes appointments in the site's zone): read off the text, never converted.
 */
export function localParts(isoWithOffset: string): { date: string; time: string } {
  return { date: isoWithOffset.slice(0, 10), time: isoWithOffset.slice(11, 16) };
}
