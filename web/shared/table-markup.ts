/**
 * Message bodies may carry tables as `[[table]]{"columns":[...],"rows":[[...]]}[[/table]]`
 * blocks (the data-lookup replies). Both apps render them as real tables; this splits a body
 * into text and table parts. A block that is not valid JSON of that shape stays text.
 */
export interface TableBlock {
  columns: string[];
  rows: (string | number | boolean | null)[][];
  /** A data-lookup rule's page: what "more" (`data-lookup/paginate`) and row actions need. */
  lookup?: TableLookup;
}

export interface TableLookup {
  rule_id: string;
  page: number;
  has_more: boolean;
  row_key?: string;
  actions: { id: string; label: string }[];
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
    const lookup = lookupOf(value as Record<string, unknown>);
    return {
      columns,
      rows: (rows as unknown[][]).map((row) => row.map(cell)),
      ...(lookup ? { lookup } : {}),
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

function lookupOf(value: Record<string, unknown>): TableLookup | undefined {
  const { rule_id, page, has_more, row_key, actions } = value;
  if (typeof rule_id !== 'string' || typeof page !== 'number') return undefined;
  const valid = (Array.isArray(actions) ? (actions as unknown[]) : []).filter(
    (a): a is { id: string; label: string } => {
      const action = a as { id?: unknown; label?: unknown } | null;
      return typeof action?.id === 'string' && typeof action.label === 'string';
    },
  );
  return {
    rule_id,
    page,
    has_more: has_more === true,
    ...(typeof row_key === 'string' ? { row_key } : {}),
    actions: valid.map(({ id, label }) => ({ id, label })),
  };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** Reply text is HTML-escaped by the service; shown as text, the escapes are turned back. */
export const unescapeHtml = (text: string): string =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
