/** A moment as the API writes it: ISO 8601 in UTC with milliseconds (`2026-05-01T09:30:00.000Z`). */
type Moment = Date | string | number;

/**
 * The API's form of a moment: a `Date` (a `timestamptz` column), its text, or milliseconds since
 * the epoch (a BullMQ job's times). A missing one (`null`, `undefined`) stays `null`.
 */
export function iso(value: Moment): string;
export function iso(value: Moment | null | undefined): string | null;
export function iso(value: Moment | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}
