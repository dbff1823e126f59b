import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { type Member, type Ticket } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { agentOptions, priorityOptions } from './options';

const EMPTY = {
  subject: '',
  description: '',
  priority: 'normal' as Ticket['priority'],
  customer_name: '',
  customer_email: '',
  assignee: '',
};

export function CreateTicketModal(props: {
  opened: boolean;
  onClose: () => void;
  team: Member[];
  /** Fields filled in advance (a chat turned into a ticket). */
  initial?: Partial<typeof EMPTY>;
  /** The conversation the ticket is made from: linked both ways. */
  conversationId?: number;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState(() => ({ ...EMPTY, ...props.initial }));
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/tickets', {
          body: {
            subject: form.subject,
            description: form.description,
            priority: form.priority,
            ...(form.customer_name ? { customer_name: form.customer_name } : {}),
            ...(form.customer_email ? { customer_email: form.customer_email } : {}),
            ...(form.assignee ? { assigned_agent_id: Number(form.assignee) } : {}),
            ...(props.conversationId === undefined
              ? {}
              : { conversation_id: props.conversationId }),
          },
        }),
      ),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: keys.tickets.all });
      setForm(EMPTY);
      props.onClose();
      void navigate(`/tickets/${result.data.id}`);
    },
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const bind = (name: keyof typeof EMPTY) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setForm((old) => ({ ...old, [name]: value }));
    },
    error: fields[name === 'assignee' ? 'assigned_agent_id' : name],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('tickets.create.title')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {create.error && Object.keys(fields).length === 0 && (
            <Alert color="red" role="alert">
              {t('tickets.error', { message: create.error.message })}
            </Alert>
          )}
          <TextInput
            label={t('tickets.create.subject')}
            required
            data-autofocus
            {...bind('subject')}
          />
          <Textarea
            label={t('tickets.create.description')}
            required
            autosize
            minRows={4}
            {...bind('description')}
          />
          <Group grow>
            <NativeSelect
              label={t('tickets.create.priority')}
              data={priorityOptions}
              {...bind('priority')}
            />
            <NativeSelect
              label={t('tickets.create.assignee')}
              data={[
                { value: '', label: t('tickets.filter.unassigned') },
                ...agentOptions(props.team),
              ]}
              {...bind('assignee')}
            />
          </Group>
          <Group grow>
            <TextInput label={t('tickets.create.customerName')} {...bind('customer_name')} />
            <TextInput
              label={t('tickets.create.customerEmail')}
              type="email"
              {...bind('customer_email')}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('tickets.create.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('tickets.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
