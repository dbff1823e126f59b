import { Anchor, Button, Group, Modal, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';
import { type Appointment, STATUSES, statusLabel, whoOf } from './appointment-format';
import { keys } from '../../api/keys';

/** Changes an appointment's status and notes; the lists read again once it is saved. */
export function AppointmentDialog({
  appointment,
  onClose,
  onSaved,
}: {
  appointment: Appointment;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(appointment.status);
  const [notes, setNotes] = useState(appointment.notes ?? '');
  const who = whoOf(appointment);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/appointments/{appointment}', {
          params: { path: { appointment: appointment.id } },
          body: { status, notes: notes.trim() ? notes : null },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.appointments.all });
      onSaved(t('appointments.saved', { who }));
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('appointments.dialog', { who })}
      closeButtonProps={{ 'aria-label': t('app.close') }}
      centered
    >
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">{appointment.formatted}</Text>
          {appointment.conversation_id !== null && (
            <Anchor component={Link} to={`/inbox/${appointment.conversation_id}`} size="sm">
              {t('appointments.openChat')}
            </Anchor>
          )}
          <NativeSelect
            label={t('appointments.newStatus')}
            data={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value as Appointment['status'])}
          />
          <Textarea
            label={t('appointments.notes')}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            maxLength={2000}
            autosize
            minRows={3}
          />
          {save.error && (
            <Text c="red" size="sm" role="alert">
              {save.error instanceof ApiError && save.error.status === 409
                ? t('appointments.conflict')
                : t('appointments.failed')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('appointments.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('appointments.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
