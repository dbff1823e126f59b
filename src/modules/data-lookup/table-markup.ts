/**
 * The reply markup of DESIGN section 7: a table is `[[table]]{"columns":[...],"rows":[[...]]}[[/table]]`
 * inside a `body` or `reply_body`. Values come from the owner's database, so inside the JSON every
 * `[`, `]`, `<`, `>` and `&` of a value is written as a \u escape: a value can neither close the
 * block early nor turn into HTML, and JSON.parse still gives it back exactly.
 */
export type Cell = string | null;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** JSON with the characters above escaped inside every string (keys included). */
function encode(value: Json): string {
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[[\]<>&\u2028\u2029]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(encode).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${encode(key)}:${encode(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A table block; `extra` fields (paging, actions) go into the same JSON object. */
export function tableBlock(
  columns: string[],
  rows: Cell[][],
  extra: { [key: string]: Json } = {},
): string {
  return `[[table]]${encode({ columns, rows, ...extra })}[[/table]]`;
}

/** Rows as the owner database answered them (column name to text) in the given column order. */
export const cells = (columns: string[], rows: Record<string, Cell>[]): Cell[][] =>
  rows.map((row) => columns.map((column) => row[column] ?? null));

const HTML: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML[c]);

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The column names a reply template uses. */
export const placeholders = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);

/** A row action's reply: each `{{column}}` becomes the row's value, HTML-escaped. */
export const renderTemplate = (template: string, row: Record<string, Cell>): string =>
  template.replace(PLACEHOLDER, (_, column: string) => escapeHtml(row[column] ?? ''));
