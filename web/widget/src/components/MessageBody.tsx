import { parseBody, unescapeHtml, type TableBlock } from '../../../shared/table-markup';
import { t } from '../i18n';

export interface TableActions {
  more(table: TableBlock): void;
  rowAction(table: TableBlock, actionId: string, row: Record<string, unknown>): void;
}

/** A message body: text (never HTML) and `[[table]]` blocks as real tables. */
export function MessageBody({ body, actions }: { body: string; actions?: TableActions }) {
  const parts = parseBody(body);
  let tables = 0;
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'text' ? (
          <p key={index} class="text">
            {unescapeHtml(part.text.trim())}
          </p>
        ) : (
          <DataTable key={index} table={part.table} n={++tables} actions={actions} />
        ),
      )}
    </>
  );
}

function DataTable({
  table,
  n,
  actions,
}: {
  table: TableBlock;
  n: number;
  actions?: TableActions;
}) {
  const lookup = table.lookup;
  const rowObject = (row: TableBlock['rows'][number]) =>
    Object.fromEntries(table.columns.map((column, i) => [column, row[i]]));
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{t('chat.table', { n })}</caption>
        <thead>
          <tr>
            {table.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {lookup && lookup.actions.length > 0 && (
              <th scope="col">
                <span class="sr-only">{t('header.menu')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((value, c) => (
                <td key={c}>{value === null ? '' : String(value)}</td>
              ))}
              {lookup && lookup.actions.length > 0 && (
                <td>
                  {lookup.actions.map((action) => (
                    <button
                      key={action.id}
                      type="button"
                      class="chip"
                      aria-label={`${action.label} ${String(row[0] ?? '')}`.trim()}
                      onClick={() => actions?.rowAction(table, action.id, rowObject(row))}
                    >
                      {action.label}
                    </button>
                  ))}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {lookup?.has_more && actions && (
        <button type="button" class="link" onClick={() => actions.more(table)}>
          {t('chat.more')}
        </button>
      )}
    </div>
  );
}
