import {
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  NativeSelect,
  SimpleGrid,
  Paper,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useUrlParams } from '../../app/use-url-params';
import { type TicketFilters, useTeamDirectory } from '../../api/queries';
import { shortTime } from '../../components/format';
import { ListBody, ListPager, pageParam } from '../../components/ListStates';
import { t } from '../../i18n';
import { useTicketAlerts } from '../../app/ticket-alerts';
import { CreateTicketModal } from './CreateTicketModal';
import {
  agentOptions,
  PRIORITIES,
  PRIORITY_COLOR,
  priorityOptions,
  STATUS_COLOR,
  STATUSES,
  statusOptions,
} from './options';
import { useTickets } from './useTickets';

const ANY = { value: '', label: t('tickets.filter.any') };

export function TicketList() {
  const { params, setParam: setFilter } = useUrlParams();
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const [creating, create] = useDisclosure();
  const team = useTeamDirectory().data ?? [];
  const filters: TicketFilters = {
    status: STATUSES.find((s) => s === params.get('status')),
    priority: PRIORITIES.find((p) => p === params.get('priority')),
    assigned_agent_id: params.get('assignee') ? Number(params.get('assignee')) : undefined,
    q: q || undefined,
    page: pageParam(params),
  };
  /** A filter chosen, or a new search, starts again at the first page. */
  const choose = (name: string, value: string) => setFilter(name, value, ['page']);
  const tickets = useTickets(filters);
  const alerted = useTicketAlerts();
  const rows = tickets.data?.data ?? [];
  const agentName = (id: number | null) =>
    team.find((agent) => agent.id === id)?.name ?? t('tickets.filter.unassigned');

  return (
    <Container size="xl" py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {t('tickets.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={create.open}>
          {t('tickets.new')}
        </Button>
      </Group>
      <Paper
        withBorder
        radius="md"
        p="md"
        mb="md"
        component="section"
        aria-label={t('tickets.filters')}
      >
        {/* One row on a desktop; two, then one, as the screen narrows (labels stay whole). */}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} style={{ alignItems: 'end' }}>
          <TextInput
            label={t('tickets.filter.search')}
            leftSection={<IconSearch size={16} />}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              if (params.has('page')) setFilter('page', '');
            }}
            type="search"
          />
          <NativeSelect
            label={t('tickets.filter.status')}
            data={[ANY, ...statusOptions]}
            value={filters.status ?? ''}
            onChange={(event) => choose('status', event.currentTarget.value)}
          />
          <NativeSelect
            label={t('tickets.filter.priority')}
            data={[ANY, ...priorityOptions]}
            value={filters.priority ?? ''}
            onChange={(event) => choose('priority', event.currentTarget.value)}
          />
          <NativeSelect
            label={t('tickets.filter.assignee')}
            data={[ANY, ...agentOptions(team)]}
            value={params.get('assignee') ?? ''}
            onChange={(event) => choose('assignee', event.currentTarget.value)}
          />
        </SimpleGrid>
      </Paper>
      <ListBody
        loading={tickets.isPending && !tickets.data}
        failed={tickets.isError}
        empty={rows.length === 0}
        errorText={t('tickets.list.error')}
        emptyText={t('tickets.list.empty')}
      >
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={720}>
            <Table highlightOnHover verticalSpacing="sm" aria-label={t('tickets.list.label')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tickets.col.number')}</Table.Th>
                  <Table.Th>{t('tickets.col.subject')}</Table.Th>
                  <Table.Th>{t('tickets.col.status')}</Table.Th>
                  <Table.Th>{t('tickets.col.priority')}</Table.Th>
                  <Table.Th>{t('tickets.col.assignee')}</Table.Th>
                  <Table.Th>{t('tickets.col.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((ticket) => (
                  <Table.Tr key={ticket.id}>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {ticket.ticket_number}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor component={Link} to={`/tickets/${ticket.id}`} fw={500}>
                          {ticket.subject}
                        </Anchor>
                        {alerted.has(ticket.id) && (
                          <Badge size="xs" color="indigo" variant="light">
                            {t('tickets.list.new')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLOR[ticket.status]}>
                        {t(`tickets.status.${ticket.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={PRIORITY_COLOR[ticket.priority]}>
                        {t(`tickets.priority.${ticket.priority}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{agentName(ticket.assigned_agent_id)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {shortTime(ticket.updated_at)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {tickets.data && (
            <ListPager
              page={tickets.data}
              label={t('tickets.list.label')}
              onPage={(page) => setFilter('page', page > 1 ? String(page) : '')}
            />
          )}
        </Paper>
      </ListBody>
      <CreateTicketModal opened={creating} onClose={create.close} team={team} />
    </Container>
  );
}
