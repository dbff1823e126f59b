/** One CSV (RFC 4180) line per row; a cell that a spreadsheet would run as a formula is quoted text. */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
