import { Alert, Center, Group, Loader, Pagination, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { t } from '../i18n';

/**
 * What a list page shows under its filters: a loader while its first answer comes, the error
 * when it failed, a note when nothing matches, else the rows (`children`). A later page or filter
 * keeps the rows on screen while it loads (the queries keep their previous data).
 */
export function ListBody(props: {
  loading: boolean;
  failed: boolean;
  empty: boolean;
  loadingLabel?: string;
  errorText: string;
  emptyText: string;
  children: ReactNode;
}) {
  if (props.loading)
    return (
      <Center p="xl">
        <Loader role="status" aria-label={props.loadingLabel ?? t('app.loading')} />
      </Center>
    );
  if (props.failed)
    return (
      <Alert color="red" role="alert">
        {props.errorText}
      </Alert>
    );
  if (props.empty)
    return (
      <Paper withBorder radius="md" p="xl">
        <Text c="dimmed" ta="center">
          {props.emptyText}
        </Text>
      </Paper>
    );
  return <>{props.children}</>;
}

/** The page of a paginated answer (`current_page`, `per_page`, `last_page`, `total`). */
export interface PageOf {
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
  data: unknown[];
}

/**
 * Under a paginated table: which rows these are of how many ("21–40 of 75"), and the pages to
 * go to when there is more than one. `label` names the list for the pages' navigation landmark.
 */
export function ListPager(props: { page: PageOf; label: string; onPage: (page: number) => void }) {
  const { current_page: current, per_page: perPage, last_page: last, total } = props.page;
  if (total === 0) return null;
  const first = (current - 1) * perPage + 1;
  return (
    <Group justify="space-between" gap="sm" p="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('app.list.range', {
          first,
          last: first + props.page.data.length - 1,
          total,
        })}
      </Text>
      {last > 1 && (
        <nav aria-label={t('app.list.pages', { list: props.label })}>
          <Pagination
            total={last}
            value={current}
            onChange={props.onPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`app.list.${control}`) })}
          />
        </nav>
      )}
    </Group>
  );
}

/** The `page` address parameter as a page number (1 when absent or not a page). */
export function pageParam(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}
