import {
  Alert,
  Badge,
  Box,
  Button,
  Container,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useUrlParams } from '../../app/use-url-params';
import { useSiteNames } from '../../api/queries';
import { ListBody } from '../../components/ListStates';
import { t } from '../../i18n';
import { AppointmentDialog } from './AppointmentDialog';
import { useAppointments } from './queries';
import {
  type Appointment,
  type AppointmentStatus,
  STATUS_COLOR,
  STATUSES,
  statusLabel,
  whoOf,
} from './appointment-format';
import { addDays, dateString, localParts, mondayOf, weekOf } from './week';

const dayName = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'short',
});
const shortDate = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const asDate = (date: string) => new Date(`${date}T12:00:00`);

/**
 * Appointments: a week at a time (the site's local dates), as a list or a calendar, filtered by
 * site and status; each opens a dialog to change its status and notes. The address keeps the
 * week, view and filters, so a link shows the same.
 */
export default function AppointmentsPage() {
  const { params, setParam: set } = useUrlParams();
  const sites = useSiteNames().data ?? [];
  const monday = mondayOf(params.get('week') ?? dateString(new Date()));
  const days = weekOf(monday);
  const view = params.get('view') === 'week' ? 'week' : 'list';
  const status = STATUSES.find((s) => s === params.get('status'));
  const siteId = params.get('site') ? Number(params.get('site')) : sites[0]?.id;
  const [editing, setEditing] = useState<Appointment | undefined>();
  const [notice, setNotice] = useState('');

  const query = {
    per_page: 100,
    from: days[0],
    to: days[6],
    ...(siteId === undefined ? {} : { site_id: siteId }),
    ...(status ? { status } : {}),
  };
  const list = useAppointments(query, siteId !== undefined);
  const rows = list.data?.data ?? [];
  const timezone = rows[0]?.timezone;

  return (
    <Container size="xl" py="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={1} size="h2">
          {t('appointments.title')}
        </Title>
        <SegmentedControl
          aria-label={t('appointments.view')}
          value={view}
          onChange={(value) => set('view', value === 'week' ? 'week' : '')}
          data={[
            { value: 'list', label: t('appointments.view.list') },
            { value: 'week', label: t('appointments.view.week') },
          ]}
        />
      </Group>
      <Paper
        withBorder
        radius="md"
        p="md"
        mb="md"
        component="section"
        aria-label={t('appointments.filters')}
      >
        <Group align="flex-end" wrap="wrap">
          {sites.length > 1 && (
            <NativeSelect
              label={t('appointments.site')}
              data={sites.map((site) => ({ value: String(site.id), label: site.name }))}
              value={siteId === undefined ? '' : String(siteId)}
              onChange={(event) => set('site', event.currentTarget.value)}
            />
          )}
          <NativeSelect
            label={t('appointments.status')}
            data={[
              { value: '', label: t('appointments.anyStatus') },
              ...STATUSES.map((value) => ({ value, label: statusLabel(value) })),
            ]}
            value={status ?? ''}
            onChange={(event) => set('status', event.currentTarget.value)}
          />
          <Group gap="xs" wrap="wrap">
            <Button variant="default" onClick={() => set('week', addDays(monday, -7))}>
              {t('appointments.previousWeek')}
            </Button>
            <Button variant="default" onClick={() => set('week', '')}>
              {t('appointments.thisWeek')}
            </Button>
            <Button variant="default" onClick={() => set('week', addDays(monday, 7))}>
              {t('appointments.nextWeek')}
            </Button>
          </Group>
        </Group>
        <Title order={2} size="h4" mt="md" aria-live="polite">
          {t('appointments.week', {
            from: shortDate.format(asDate(days[0])),
            to: shortDate.format(asDate(days[6])),
          })}
        </Title>
        {timezone && (
          <Text size="sm" c="dimmed">
            {t('appointments.timezone', { timezone })}
          </Text>
        )}
      </Paper>
      {notice && (
        <Alert
          color="teal"
          role="status"
          mb="md"
          withCloseButton
          onClose={() => setNotice('')}
          closeButtonLabel={t('app.close')}
        >
          {notice}
        </Alert>
      )}
      <ListBody
        loading={list.isPending && siteId !== undefined}
        failed={list.isError}
        empty={view !== 'week' && rows.length === 0}
        errorText={t('appointments.error')}
        emptyText={t('appointments.empty')}
      >
        {view === 'week' ? (
          <WeekCalendar days={days} rows={rows} onOpen={setEditing} />
        ) : (
          <AppointmentTable rows={rows} onOpen={setEditing} />
        )}
      </ListBody>
      {editing && (
        <AppointmentDialog
          key={editing.id}
          appointment={editing}
          onClose={() => setEditing(undefined)}
          onSaved={setNotice}
        />
      )}
    </Container>
  );
}

function StatusBadge({ status }: { status: AppointmentStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLOR[status]} style={{ minWidth: 'max-content' }}>
      {statusLabel(status)}
    </Badge>
  );
}

function AppointmentTable({
  rows,
  onOpen,
}: {
  rows: Appointment[];
  onOpen: (appointment: Appointment) => void;
}) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={680}>
        <Table verticalSpacing="sm" aria-label={t('appointments.list')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('appointments.col.when')}</Table.Th>
              <Table.Th>{t('appointments.col.who')}</Table.Th>
              <Table.Th>{t('appointments.col.status')}</Table.Th>
              <Table.Th>{t('appointments.col.notes')}</Table.Th>
              <Table.Th>{t('appointments.col.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((appointment) => (
              <Table.Tr key={appointment.id}>
                <Table.Td>
                  <Text size="sm">{appointment.formatted}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{whoOf(appointment)}</Text>
                  {appointment.visitor_email && appointment.visitor_name && (
                    <Text size="xs" c="dimmed">
                      {appointment.visitor_email}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={appointment.status} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2} style={{ whiteSpace: 'pre-wrap' }}>
                    {appointment.notes ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Button variant="subtle" size="xs" onClick={() => onOpen(appointment)}>
                    {t('appointments.edit', { who: whoOf(appointment) })}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** Seven day columns (a stack on a phone); each appointment a button that opens it. */
function WeekCalendar({
  days,
  rows,
  onOpen,
}: {
  days: string[];
  rows: Appointment[];
  onOpen: (appointment: Appointment) => void;
}) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 4, lg: 7 }}
      spacing="xs"
      component="section"
      aria-label={t('appointments.calendar')}
    >
      {days.map((day) => {
        const booked = rows.filter((row) => localParts(row.scheduled_at).date === day);
        return (
          <Paper
            key={day}
            withBorder
            radius="md"
            p="xs"
            component="section"
            aria-labelledby={`day-${day}`}
          >
            <Title order={3} size="h6" id={`day-${day}`} mb="xs">
              {dayName.format(asDate(day))}
            </Title>
            <Stack gap={6}>
              {booked.length === 0 ? (
                <Text size="xs" c="dimmed">
                  {t('appointments.emptyDay')}
                </Text>
              ) : (
                booked.map((appointment) => (
                  <UnstyledButton
                    key={appointment.id}
                    onClick={() => onOpen(appointment)}
                    p={6}
                    style={{
                      borderRadius: 'var(--mantine-radius-sm)',
                      borderLeft: `3px solid var(--mantine-color-${STATUS_COLOR[appointment.status]}-7)`,
                      background: 'var(--mantine-color-gray-0)',
                    }}
                  >
                    <Box>
                      <Text size="sm" fw={600}>
                        {localParts(appointment.scheduled_at).time}
                      </Text>
                      <Text size="xs">{whoOf(appointment)}</Text>
                      <Text size="xs" c="dimmed">
                        {statusLabel(appointment.status)}
                      </Text>
                    </Box>
                  </UnstyledButton>
                ))
              )}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
