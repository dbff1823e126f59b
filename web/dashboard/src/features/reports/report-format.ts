/** A range of whole days, `YYYY-MM-DD`, both included (the reports API's `from` and `to`). */
export interface DayRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A local calendar day as the API reads it. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last `days` days up to and including `today`. */
export function lastDays(days: number, today = new Date()): DayRange {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: isoDay(start), to: isoDay(today) };
}

/** A duration for people: "45 s", "3 min 20 s", "2 h 5 min", "1 d 4 h"; a dash when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return s % 60 ? `${minutes} min ${s % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A 0-1 rate as a percentage with one decimal; a dash when there is nothing to divide. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

/** The query every report takes, without the filters left empty. */
export function reportQuery(
  range: DayRange,
  siteId: number | undefined,
  agentId: number | undefined,
): { from: string; to: string; site_id?: number; agent_id?: number } {
  return {
    ...range,
    ...(siteId === undefined ? {} : { site_id: siteId }),
    ...(agentId === undefined ? {} : { agent_id: agentId }),
  };
}

/** The CSV export of a report for the same query (a plain download link carrying the cookie). */
export function csvHref(
  report: 'conversations' | 'response-times' | 'csat',
  query: Record<string, string | number>,
): string {
  const params = new URLSearchParams(
    Object.entries(query).map(([key, value]) => [key, String(value)]),
  );
  return `/api/agent/reports/${report}.csv?${params.toString()}`;
}
