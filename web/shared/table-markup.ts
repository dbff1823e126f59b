/**
 * Message bodies may carry tables as `[[table]]{"columns":[...],"rows":[[...]]}[[/table]]`
 * blocks (the data-lookup replies). Both apps render them as real tables; this splits a body
 * into text and table parts. A block that is not valid JSON of that shape stays text.
 */
export interface TableBlock {
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

export type BodyPart = { kind: 'text'; text: string } | { kind: 'table'; table: TableBlock };

const BLOCK = /\[\[table\]\]([\s\S]*?)\[\[\/table\]\]/g;

export function parseBody(body: string): BodyPart[] {
  const parts: BodyPart[] = [];
  let last = 0;
  for (const match of body.matchAll(BLOCK)) {
    const table = parseTable(match[1]);
    if (!table) continue;
    if (match.index > last) parts.push({ kind: 'text', text: body.slice(last, match.index) });
    parts.push({ kind: 'table', table });
    last = match.index + match[0].length;
  }
  if (last < body.length) parts.push({ kind: 'text', text: body.slice(last) });
  return parts.filter((part) => part.kind === 'table' || part.text.trim() !== '');
}

function parseTable(json: string): TableBlock | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (!value || typeof value !== 'object') return undefined;
    const { columns, rows } = value as { columns?: unknown; rows?: unknown };
    if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string')) return undefined;
    if (!Array.isArray(rows) || !rows.every((row) => Array.isArray(row))) return undefined;
    return {
      columns,
      rows: (rows as unknown[][]).map((row) => row.map(cell)),
    };
  } catch {
    return undefined;
  }
}

function cell(value: unknown): string | number | boolean | null {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
    return value as string | number | boolean | null;
  }
  return JSON.stringify(value);
}
