import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMe } from '../../../api/queries';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { useAppointments } from '../../appointments/queries';
import { SiteSelect } from '../kit/SiteSelect';
import {
  fieldErrorsOf,
  isAdmin,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
  Tag,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useAppointmentSettings } from './queries';

type Settings = Schemas['AppointmentSettingsDto'];
type Appointment = Schemas['AgentAppointmentDto'];
type Weekday = keyof Settings['working_hours'];
type Status = Appointment['status'];
const WEEKDAYS: Weekday[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];
const STATUSES: Status[] = ['pending', 'confirmed', 'cancelled', 'completed'];
const statusOptions = STATUSES.map((s) => ({
  value: s,
  label: t(`settings.appointments.status.${s}`),
}));
const statusColor = {
  pending: 'yellow',
  confirmed: 'teal',
  cancelled: 'gray',
  completed: 'indigo',
};

export default function AppointmentsSettings() {
  const me = useMe();
  const admin = isAdmin(me.data?.user.role);
  const [siteId, setSiteId] = useState<number | undefined>(undefined);
  const notice = useNotice();
  const settings = useAppointmentSettings(siteId);
  return (
    <>
      <SectionHeader
        title={t('settings.appointments.title')}
        description={t('settings.appointments.description')}
      />
      <SiteSelect value={siteId} onChange={setSiteId} />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={settings.isPending} error={settings.error} />
      <Stack gap="xl">
        {settings.data && (
          <SettingsForm
            key={`${settings.data.settings.site_id}-${settings.dataUpdatedAt}`}
            settings={settings.data.settings}
            timezone={settings.data.timezone}
            notice={notice}
            readOnly={!admin}
          />
        )}
        <AppointmentList siteId={siteId} notice={notice} />
      </Stack>
    </>
  );
}

function SettingsForm({
  settings,
  timezone,
  notice,
  readOnly,
}: {
  settings: Settings;
  timezone: string;
  notice: ReturnType<typeof useNotice>;
  /** Agents see the rules; owners and admins change them (the API refuses agents too). */
  readOnly: boolean;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(settings);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/appointment-settings', {
          params: { query: { site_id: settings.site_id } },
          body: {
            enabled: form.enabled,
            duration_minutes: form.duration_minutes,
            buffer_minutes: form.buffer_minutes,
            slot_interval_minutes: form.slot_interval_minutes,
            advance_days: form.advance_days,
            min_notice_hours: form.min_notice_hours,
            working_hours: form.working_hours,
          },
        }),
      ),
    onSuccess: () => {
      notice.success(t('settings.saved'));
      void queryClient.invalidateQueries({ queryKey: keys.appointmentSettings.all });
    },
    onError: notice.failure,
  });
  const errors = fieldErrorsOf(save.error);
  const number = (key: keyof Settings, label: string) => (
    <NumberInput
      label={label}
      min={0}
      value={form[key] as number}
      onChange={(value) => setForm({ ...form, [key]: Number(value) || 0 })}
      error={errors[key]}
    />
  );
  const setDay = (day: Weekday, ranges: Settings['working_hours'][Weekday]) =>
    setForm({ ...form, working_hours: { ...form.working_hours, [day]: ranges } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card
      withBorder
      padding="lg"
      component="form"
      onSubmit={submit}
      aria-labelledby="appt-settings"
    >
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="appt-settings">
          {t('settings.appointments.settings')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.appointments.timezone', { timezone })}
        </Text>
      </Group>
      {readOnly && (
        <Text size="sm" mb="sm">
          {t('settings.appointments.readOnly')}
        </Text>
      )}
      {/* A disabled fieldset disables every field and button inside it at once. */}
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          <Switch
            label={t('settings.appointments.enabled')}
            checked={form.enabled}
            onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
          />
          <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
            {number('duration_minutes', t('settings.appointments.duration'))}
            {number('buffer_minutes', t('settings.appointments.buffer'))}
            {number('slot_interval_minutes', t('settings.appointments.interval'))}
            {number('advance_days', t('settings.appointments.advance'))}
            {number('min_notice_hours', t('settings.appointments.notice'))}
          </SimpleGrid>
          <Title order={4} size="h5" mt="sm">
            {t('settings.appointments.hours')}
          </Title>
          <Table withRowBorders>
            <Table.Tbody>
              {WEEKDAYS.map((day) => {
                const ranges = form.working_hours[day];
                const dayName = t(`settings.appointments.day.${day}`);
                return (
                  <Table.Tr key={day}>
                    <Table.Th scope="row" w={130} style={{ verticalAlign: 'top', paddingTop: 14 }}>
                      {dayName}
                    </Table.Th>
                    <Table.Td>
                      <Stack gap="xs">
                        {ranges.length === 0 && (
                          <Text size="sm" c="dimmed">
                            {t('settings.appointments.closed')}
                          </Text>
                        )}
                        {ranges.map((range, index) => (
                          <Group key={index} gap="xs" align="flex-start">
                            <TextInput
                              placeholder="09:00"
                              aria-label={t('settings.appointments.from', { day: dayName })}
                              value={range.start}
                              onChange={(e) =>
                                setDay(
                                  day,
                                  ranges.map((r, i) =>
                                    i === index ? { ...r, start: e.currentTarget.value } : r,
                                  ),
                                )
                              }
                              error={errors[`working_hours.${day}.${index}.start`]}
                              w={130}
                            />
                            <Text mt={6}>–</Text>
                            <TextInput
                              placeholder="09:00"
                              aria-label={t('settings.appointments.to', { day: dayName })}
                              value={range.end}
                              onChange={(e) =>
                                setDay(
                                  day,
                                  ranges.map((r, i) =>
                                    i === index ? { ...r, end: e.currentTarget.value } : r,
                                  ),
                                )
                              }
                              error={
                                errors[`working_hours.${day}.${index}.end`] ??
                                errors[`working_hours.${day}`]
                              }
                              w={130}
                            />
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              mt={4}
                              aria-label={t('settings.appointments.removeRange', { day: dayName })}
                              onClick={() =>
                                setDay(
                                  day,
                                  ranges.filter((_, i) => i !== index),
                                )
                              }
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Group>
                        ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td w={60} style={{ verticalAlign: 'top' }}>
                      <ActionIcon
                        variant="light"
                        mt={4}
                        aria-label={t('settings.appointments.addRange', { day: dayName })}
                        onClick={() => setDay(day, [...ranges, { start: '09:00', end: '17:00' }])}
                      >
                        <IconPlus size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {!readOnly && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {t('settings.appointments.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </Card>
  );
}

function AppointmentList({
  siteId,
  notice,
}: {
  siteId: number | undefined;
  notice: ReturnType<typeof useNotice>;
}) {
  const [status, setStatus] = useState<Status | null>(null);
  const query = {
    per_page: 100,
    ...(siteId === undefined ? {} : { site_id: siteId }),
    ...(status ? { status } : {}),
  };
  const list = useAppointments(query);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="appt-list">
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={3} size="h4" id="appt-list">
          {t('settings.appointments.list')}
        </Title>
        <Select
          label={t('settings.appointments.filter')}
          placeholder={t('settings.appointments.allStatuses')}
          data={statusOptions}
          value={status}
          onChange={(value) => setStatus(value)}
          clearable
          w={200}
        />
      </Group>
      <QueryState loading={list.isPending} error={list.error} />
      {list.data && list.data.data.length === 0 && (
        <Text c="dimmed">{t('settings.appointments.empty')}</Text>
      )}
      <Stack>
        {list.data?.data.map((appointment) => (
          <AppointmentRow key={appointment.id} appointment={appointment} notice={notice} />
        ))}
      </Stack>
    </Card>
  );
}

function AppointmentRow({
  appointment,
  notice,
}: {
  appointment: Appointment;
  notice: ReturnType<typeof useNotice>;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>(appointment.status);
  const [notes, setNotes] = useState(appointment.notes ?? '');
  const who =
    appointment.visitor_name || appointment.visitor_email || t('settings.appointments.visitor');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/appointments/{appointment}', {
          params: { path: { appointment: appointment.id } },
          body: { status, notes },
        }),
      ),
    onSuccess: () => {
      notice.success(t('settings.appointments.updated', { who }));
      void queryClient.invalidateQueries({ queryKey: keys.appointments.all });
    },
    onError: notice.failure,
  });
  const errors = fieldErrorsOf(save.error);
  return (
    <Card
      withBorder
      padding="sm"
      component="form"
      aria-label={t('settings.appointments.named', { who, when: appointment.formatted })}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{appointment.formatted}</Text>
            <Tag color={statusColor[appointment.status]}>
              {t(`settings.appointments.status.${appointment.status}`)}
            </Tag>
          </Group>
          <Text size="sm">{who}</Text>
          <Text size="xs" c="dimmed">
            {[appointment.visitor_email, appointment.visitor_phone].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <Select
            label={t('settings.appointments.statusLabel')}
            data={statusOptions}
            value={status}
            onChange={(value) => value && setStatus(value)}
            allowDeselect={false}
            error={errors.status}
            w={150}
          />
          <Textarea
            label={t('settings.appointments.notes')}
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            error={errors.notes}
            autosize
            minRows={1}
            w={260}
          />
          <Button type="submit" loading={save.isPending}>
            {t('settings.appointments.update')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
