import { Table, type TableTdProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryState } from './ui';

/** A column of a settings list: its header and what each row shows in it. */
export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (item: T) => ReactNode;
  props?: TableTdProps;
}

/**
 * A settings list as every settings page shows one: its loading or error state, a sentence when
 * it is empty, else a table of `columns` (scrolling sideways below `minWidth`).
 */
export function ListTable<T>({
  items,
  loading,
  error,
  empty,
  columns,
  rowKey,
  minWidth = 720,
  highlightOnHover = false,
}: {
  items: T[] | undefined;
  loading: boolean;
  error: unknown;
  /** What an empty list says (a list that cannot be empty, like the team, needs none). */
  empty?: string;
  columns: Column<T>[];
  rowKey: (item: T) => string | number;
  minWidth?: number;
  highlightOnHover?: boolean;
}) {
  return (
    <>
      <QueryState loading={loading} error={error} />
      {items && items.length === 0 && empty && (
        <Text c="dimmed" mt="lg">
          {empty}
        </Text>
      )}
      {items && items.length > 0 && (
        // Native scrolling in a focusable box: on a phone the table scrolls sideways, and a
        // keyboard user can scroll it too (axe: scrollable-region-focusable).
        // Positioned, so what is absolutely placed in it (a visually hidden column header) is
        // clipped with the table, not widening the page on a phone.
        <Table.ScrollContainer
          minWidth={minWidth}
          mt="lg"
          type="native"
          tabIndex={0}
          style={{ position: 'relative' }}
        >
          <Table verticalSpacing="sm" highlightOnHover={highlightOnHover}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.key}>{column.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={rowKey(item)}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} {...column.props}>
                      {column.cell(item)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
