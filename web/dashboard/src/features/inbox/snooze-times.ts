/** The snooze presets, in the agent's own time zone: in an hour, tomorrow 9:00, Monday 9:00. */
export function snoozePresets(now: Date): { key: 'hour' | 'tomorrow' | 'monday'; until: Date }[] {
  const hour = new Date(now.getTime() + 3_600_000);
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  const monday = new Date(now);
  // The next Monday (a week on when today is Monday).
  monday.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  monday.setHours(9, 0, 0, 0);
  return [
    { key: 'hour', until: hour },
    { key: 'tomorrow', until: tomorrow },
    { key: 'monday', until: monday },
  ];
}

/** A time as a `datetime-local` input's value (the browser's zone, to the minute). */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}
