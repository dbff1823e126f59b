import { Group, Select, SimpleGrid, Switch, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import type { Schemas } from '../../../../../shared/api/client';

const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
type Weekday = (typeof WEEKDAYS)[number];
type Range = { start: string; end: string };
type Hours = Partial<Record<Weekday, Range[]>>;

type Stored = Schemas['StoredWidgetSettingsDto'];
/** The site's availability, offline mode and transcript settings, as the API answers them. */
export type AwaySettings = Pick<Stored, 'availability' | 'offline' | 'transcripts'>;

const OFFICE: Hours = Object.fromEntries(
  WEEKDAYS.map((day) => [
    day,
    day === 'saturday' || day === 'sunday' ? [] : [{ start: '09:00', end: '17:00' }],
  ]),
);

/**
 * When the site is staffed and what the widget does otherwise: business hours (one range a day
 * here; further ranges set over the API are kept), the away message, the expected reply time,
 * the offline mode and the transcript on close.
 */
export function AvailabilityForm({
  value,
  errors,
  saving,
  onSave,
}: {
  value: AwaySettings;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (value: AwaySettings) => void;
}) {
  const [hours, setHours] = useState<Hours | null>(value.availability.business_hours);
  const [message, setMessage] = useState(value.availability.away_message ?? '');
  const [replyTime, setReplyTime] = useState(value.availability.reply_time);
  const [mode, setMode] = useState(value.offline.mode);
  const [onClose, setOnClose] = useState(value.transcripts.on_close);
  const at = 'widget_settings.availability';
  const hoursError = errors[`${at}.business_hours`];

  const setDay = (day: Weekday, ranges: Range[]) => setHours({ ...(hours ?? {}), [day]: ranges });
  const submit = () =>
    onSave({
      availability: {
        business_hours: hours,
        // Empty: the widget says it in its own words, in the visitor's language.
        away_message: message.trim() || null,
        reply_time: replyTime,
      },
      offline: { mode },
      transcripts: { on_close: onClose },
    });

  return (
    <FormCard
      id="site-availability"
      title={t('settings.away.title')}
      submitLabel={t('settings.away.save')}
      submitting={saving}
      onSubmit={submit}
    >
      <Switch
        label={t('settings.away.hoursSwitch')}
        description={t('settings.away.hoursHint')}
        checked={hours !== null}
        onChange={(e) => setHours(e.currentTarget.checked ? OFFICE : null)}
      />
      {hours && (
        <Table withRowBorders aria-label={t('settings.away.hours')}>
          <Table.Tbody>
            {WEEKDAYS.map((day) => {
              const ranges = hours[day] ?? [];
              const first = ranges[0];
              const dayName = t(`settings.appointments.day.${day}`);
              const setFirst = (range: Range) => setDay(day, [range, ...ranges.slice(1)]);
              return (
                <Table.Tr key={day}>
                  <Table.Th scope="row" w={130}>
                    {dayName}
                  </Table.Th>
                  <Table.Td>
                    <Group gap="xs" align="flex-start">
                      <Switch
                        w={190}
                        mt={6}
                        label={t('settings.away.open', { day: dayName })}
                        checked={!!first}
                        onChange={(e) =>
                          setDay(
                            day,
                            e.currentTarget.checked ? [{ start: '09:00', end: '17:00' }] : [],
                          )
                        }
                      />
                      {first ? (
                        <>
                          <TextInput
                            placeholder="09:00"
                            aria-label={t('settings.appointments.from', { day: dayName })}
                            value={first.start}
                            onChange={(e) => setFirst({ ...first, start: e.currentTarget.value })}
                            w={130}
                          />
                          <Text mt={6}>–</Text>
                          <TextInput
                            aria-label={t('settings.appointments.to', { day: dayName })}
                            placeholder="17:00"
                            value={first.end}
                            onChange={(e) => setFirst({ ...first, end: e.currentTarget.value })}
                            w={130}
                          />
                        </>
                      ) : (
                        <Text size="sm" c="dimmed" mt={2}>
                          {t('settings.appointments.closed')}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {hoursError && (
        <Text c="red" size="sm" role="alert">
          {hoursError}
        </Text>
      )}
      <Textarea
        label={t('settings.away.message')}
        description={t('settings.away.messageHint')}
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        maxLength={500}
        autosize
        minRows={2}
        error={errors[`${at}.away_message`]}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('settings.away.replyTime')}
          data={[
            { value: 'minutes', label: t('settings.away.replyMinutes') },
            { value: 'hours', label: t('settings.away.replyHours') },
            { value: 'day', label: t('settings.away.replyDay') },
          ]}
          value={replyTime}
          onChange={(next) => next && setReplyTime(next)}
          allowDeselect={false}
          error={errors[`${at}.reply_time`]}
        />
        <Select
          label={t('settings.away.mode')}
          data={[
            { value: 'chat', label: t('settings.away.modeChat') },
            { value: 'ticket_form', label: t('settings.away.modeTicket') },
          ]}
          value={mode}
          onChange={(next) => next && setMode(next)}
          allowDeselect={false}
          error={errors['widget_settings.offline.mode']}
        />
      </SimpleGrid>
      <Switch
        label={t('settings.away.transcripts')}
        description={t('settings.away.transcriptsHint')}
        checked={onClose}
        onChange={(e) => setOnClose(e.currentTarget.checked)}
      />
    </FormCard>
  );
}
