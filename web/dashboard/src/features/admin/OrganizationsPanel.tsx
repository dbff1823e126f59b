import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import {
  type PlatformOrganization,
  useChangeOrganization,
  usePlatformOrganizations,
} from './queries';

const PLANS = ['free', 'pro', 'business'] as const;
type Plan = (typeof PLANS)[number];

function bytes(value: number): string {
  return new Intl.NumberFormat(undefined, {
    style: 'unit',
    unit: value >= 1_048_576 ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: 1,
  }).format(value >= 1_048_576 ? value / 1_048_576 : value / 1024);
}

/** Every organization, searchable and paged, each managed in the form below the table. */
export function OrganizationsPanel() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [managing, setManaging] = useState<number>();
  const list = usePlatformOrganizations(q, page);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
    setPage(1);
  };
  const selected = list.data?.data.find((organization) => organization.id === managing);

  return (
    <Stack gap="md">
      <Group component="form" role="search" onSubmit={submit} align="flex-end">
        <TextInput
          label={t('admin.org.search')}
          placeholder={t('admin.org.searchPlaceholder')}
          type="search"
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit">{t('admin.org.searchSubmit')}</Button>
      </Group>
      {list.error && (
        <Alert color="red" role="alert">
          {t('admin.error', { message: list.error.message })}
        </Alert>
      )}
      {list.isPending ? (
        <Loader role="status" aria-label={t('app.loading')} />
      ) : list.data ? (
        <>
          <Text size="sm" c="dimmed" role="status">
            {t('admin.org.count', { count: list.data.total })}
          </Text>
          <Table striped aria-label={t('admin.org.list')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.org.name')}</Table.Th>
                <Table.Th>{t('admin.org.plan')}</Table.Th>
                <Table.Th>{t('admin.org.subscription')}</Table.Th>
                <Table.Th>{t('admin.org.state')}</Table.Th>
                <Table.Th>{t('admin.org.usage')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((organization) => (
                <OrganizationRow
                  key={organization.id}
                  organization={organization}
                  onManage={() => setManaging(organization.id)}
                />
              ))}
            </Table.Tbody>
          </Table>
          {list.data.data.length === 0 && <Text c="dimmed">{t('admin.org.empty')}</Text>}
          <Group>
            <Button variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('admin.org.previous')}
            </Button>
            <Text size="sm">{t('admin.org.page', { page, last: list.data.last_page })}</Text>
            <Button
              variant="default"
              disabled={page >= list.data.last_page}
              onClick={() => setPage(page + 1)}
            >
              {t('admin.org.next')}
            </Button>
          </Group>
        </>
      ) : null}
      {selected && (
        <ManageOrganization
          key={selected.id}
          organization={selected}
          onClose={() => setManaging(undefined)}
        />
      )}
    </Stack>
  );
}

function OrganizationRow({
  organization,
  onManage,
}: {
  organization: PlatformOrganization;
  onManage: () => void;
}) {
  const { usage } = organization;
  return (
    <Table.Tr>
      <Table.Td>
        {organization.name}{' '}
        <Text span c="dimmed" size="xs">
          #{organization.id}
        </Text>
      </Table.Td>
      <Table.Td>{organization.plan}</Table.Td>
      <Table.Td>
        {organization.subscription_ends_at
          ? longTime(organization.subscription_ends_at)
          : t('admin.org.never')}
      </Table.Td>
      <Table.Td>
        <Badge color={organization.suspended_at ? 'red' : 'teal'} variant="light">
          {organization.suspended_at ? t('admin.org.suspended') : t('admin.org.active')}
        </Badge>
      </Table.Td>
      <Table.Td>
        {t('admin.org.usageValue', {
          members: usage.members,
          sites: usage.sites,
          conversations: usage.conversations_this_month,
          storage: bytes(usage.storage_bytes),
        })}
      </Table.Td>
      <Table.Td>
        <Button size="xs" variant="light" onClick={onManage}>
          {t('admin.org.manage', { name: organization.name })}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function ManageOrganization({
  organization,
  onClose,
}: {
  organization: PlatformOrganization;
  onClose: () => void;
}) {
  const change = useChangeOrganization(organization.id);
  const [plan, setPlan] = useState<Plan>(
    PLANS.find((value) => value === organization.plan) ?? 'business',
  );
  const [ends, setEnds] = useState(organization.subscription_ends_at?.slice(0, 10) ?? '');
  const [reason, setReason] = useState('');
  const title = t('admin.manage.title', { name: organization.name });
  const save = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({
      kind: 'update',
      plan,
      subscription_ends_at: ends ? `${ends}T00:00:00.000Z` : null,
    });
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{title}</Text>
          <Button variant="subtle" size="xs" onClick={onClose}>
            {t('admin.manage.close')}
          </Button>
        </Group>
        <Group component="form" onSubmit={save} align="flex-end" aria-label={title}>
          <Select
            label={t('admin.manage.plan')}
            data={[...PLANS]}
            value={plan}
            onChange={(value) => setPlan(PLANS.find((p) => p === value) ?? plan)}
            allowDeselect={false}
          />
          <TextInput
            label={t('admin.manage.subscription')}
            type="date"
            value={ends}
            onChange={(event) => setEnds(event.currentTarget.value)}
          />
          <Button type="submit" loading={change.isPending}>
            {t('admin.manage.save')}
          </Button>
        </Group>
        {organization.suspended_at ? (
          <Group>
            <Text size="sm">
              {t('admin.manage.suspendedBecause', {
                date: longTime(organization.suspended_at),
                reason: organization.suspension_reason ?? '',
              })}
            </Text>
            <Button color="teal" onClick={() => change.mutate({ kind: 'resume' })}>
              {t('admin.manage.resume')}
            </Button>
          </Group>
        ) : (
          <Group
            component="form"
            align="flex-end"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              change.mutate({ kind: 'suspend', reason });
            }}
          >
            <TextInput
              label={t('admin.manage.reason')}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              required
              style={{ flex: 1 }}
            />
            <Button type="submit" color="red" disabled={reason.trim() === ''}>
              {t('admin.manage.suspend')}
            </Button>
          </Group>
        )}
        {change.error && (
          <Alert color="red" role="alert">
            {t('admin.error', { message: change.error.message })}
          </Alert>
        )}
        {change.isSuccess && (
          <Text size="sm" role="status">
            {t('admin.manage.saved')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
