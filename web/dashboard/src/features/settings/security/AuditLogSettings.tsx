import {
  Anchor,
  Button,
  Code,
  Group,
  Pagination,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { Schemas } from '../../../../../shared/api/client';
import { useTeamDirectory } from '../../../api/queries';
import { t, type MessageKey } from '../../../i18n';
import { ListTable } from '../kit/ListTable';
import { formatDateTime, SectionHeader } from '../kit/ui';
import { useAuditLog } from './queries';

type Entry = Schemas['AuditEntryDto'];

const PER_PAGE = 25;
const TARGETS = ['member', 'api_key', 'webhook', 'site', 'trusted_login', 'visitor'] as const;
const ACTION = /^[a-z_]+(\.[a-z_]+)+$/;

interface Filters {
  actor_id?: string;
  action?: string;
  target_type?: string;
  from?: string;
  to?: string;
}

/** A local date (from the date input) as the instant its day starts, or ends, here. */
function dayBound(day: string | undefined, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (end) {
    date.setDate(date.getDate() + 1);
    date.setMilliseconds(-1);
  }
  return date.toISOString();
}

function queryOf(filters: Filters) {
  return {
    actor_id: filters.actor_id ? Number(filters.actor_id) : undefined,
    action: filters.action,
    target_type: filters.target_type,
    from: dayBound(filters.from, false),
    to: dayBound(filters.to, true),
  };
}

/** What changed, as short `field: before → after` lines. */
function ChangesCell({ entry }: { entry: Entry }) {
  const changes = entry.changes as {
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  };
  const keys = [
    ...new Set([...Object.keys(changes.before ?? {}), ...Object.keys(changes.after ?? {})]),
  ];
  if (keys.length === 0) return <Text c="dimmed">{t('settings.audit.noChanges')}</Text>;
  const show = (value: unknown) =>
    value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value);
  return (
    <Stack gap={2}>
      {keys.slice(0, 6).map((key) => (
        <Text key={key} size="xs" style={{ overflowWrap: 'anywhere' }}>
          <Code>{key}</Code>{' '}
          {changes.before && changes.after
            ? `${show(changes.before[key])} → ${show(changes.after[key])}`
            : show((changes.after ?? changes.before ?? {})[key])}
        </Text>
      ))}
    </Stack>
  );
}

/** Settings → Audit log (owners and admins): filters, pages, and the same filters as CSV. */
export default function AuditLogSettings() {
  const team = useTeamDirectory();
  const [draft, setDraft] = useState<Filters>({});
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const actionError =
    draft.action && !ACTION.test(draft.action) ? t('settings.audit.badAction') : undefined;
  const log = useAuditLog({ ...queryOf(filters), page, per_page: PER_PAGE });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (actionError) return;
    setFilters({ ...draft, action: draft.action?.trim() || undefined });
    setPage(1);
  };
  const csv = new URLSearchParams({ format: 'csv' });
  for (const [key, value] of Object.entries(queryOf(filters)))
    if (value) csv.set(key, String(value));
  return (
    <>
      <SectionHeader
        title={t('settings.audit.title')}
        description={t('settings.audit.description')}
      />
      <Group
        component="form"
        onSubmit={apply}
        align="flex-end"
        aria-label={t('settings.audit.filters')}
        gap="sm"
      >
        <Select
          label={t('settings.audit.actor')}
          placeholder={t('settings.audit.anyActor')}
          data={(team.data ?? []).map((member) => ({
            value: String(member.id),
            label: member.name,
          }))}
          value={draft.actor_id ?? null}
          onChange={(value) => setDraft({ ...draft, actor_id: value ?? undefined })}
          clearable
          w={180}
        />
        <TextInput
          label={t('settings.audit.action')}
          placeholder={t('settings.audit.actionPlaceholder')}
          value={draft.action ?? ''}
          onChange={(event) => setDraft({ ...draft, action: event.currentTarget.value })}
          error={actionError}
          w={200}
        />
        <Select
          label={t('settings.audit.targetType')}
          placeholder={t('settings.audit.anyTarget')}
          data={TARGETS.map((target) => ({
            value: target,
            label: t(`settings.audit.target.${target}` as MessageKey),
          }))}
          value={draft.target_type ?? null}
          onChange={(value) => setDraft({ ...draft, target_type: value ?? undefined })}
          clearable
          w={170}
        />
        <TextInput
          type="date"
          label={t('settings.audit.from')}
          value={draft.from ?? ''}
          max={draft.to}
          onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('settings.audit.to')}
          value={draft.to ?? ''}
          min={draft.from}
          onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value || undefined })}
        />
        <Button type="submit">{t('settings.audit.apply')}</Button>
        <Button
          variant="subtle"
          onClick={() => {
            setDraft({});
            setFilters({});
            setPage(1);
          }}
        >
          {t('settings.audit.reset')}
        </Button>
      </Group>
      <Group justify="space-between" mt="lg">
        <Text size="sm" c="dimmed" aria-live="polite">
          {log.data ? t('settings.audit.total', { total: log.data.total }) : ''}
        </Text>
        <Anchor href={`/api/agent/audit-log?${csv.toString()}`} download="audit-log.csv">
          <Group gap={4}>
            <IconDownload size={16} aria-hidden />
            {t('settings.audit.download')}
          </Group>
        </Anchor>
      </Group>
      <ListTable
        items={log.data?.data}
        loading={log.isPending}
        error={log.error}
        empty={t('settings.audit.empty')}
        rowKey={(entry) => entry.id}
        minWidth={900}
        columns={[
          {
            key: 'when',
            header: t('settings.audit.when'),
            cell: (entry) => formatDateTime(entry.created_at),
            props: { style: { whiteSpace: 'nowrap' } },
          },
          {
            key: 'who',
            header: t('settings.audit.who'),
            cell: (entry) => (
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {entry.actor.name ?? '—'}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`settings.audit.actor.${entry.actor.type}` as MessageKey)}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'what',
            header: t('settings.audit.what'),
            cell: (entry) => <Code>{entry.action}</Code>,
          },
          {
            key: 'target',
            header: t('settings.audit.target'),
            cell: (entry) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {entry.target.label ?? entry.target.id ?? entry.target.type}
              </Text>
            ),
          },
          {
            key: 'changes',
            header: t('settings.audit.changes'),
            cell: (entry) => <ChangesCell entry={entry} />,
          },
          {
            key: 'from',
            header: t('settings.audit.from_address'),
            cell: (entry) => (
              <Text size="xs" title={entry.user_agent ?? undefined}>
                {entry.ip ?? '—'}
              </Text>
            ),
          },
        ]}
      />
      {log.data && log.data.last_page > 1 && (
        <Group justify="center" mt="md">
          <Pagination
            total={log.data.last_page}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({
              'aria-label': `${t('settings.audit.pages')}: ${control}`,
            })}
          />
        </Group>
      )}
    </>
  );
}
