import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Member, type Ticket, useTeamDirectory } from '../../api/queries';
import { keys } from '../../api/keys';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import {
  agentOptions,
  PRIORITY_COLOR,
  priorityOptions,
  STATUS_COLOR,
  statusOptions,
} from './options';
import { ticketAlerts } from '../../app/ticket-alerts';
import { CustomerHistory } from './CustomerHistory';
import { TicketActivity } from './TicketActivity';
import { useTicket } from './useTickets';

type TicketChange = {
  status?: Ticket['status'];
  priority?: Ticket['priority'];
  assigned_agent_id?: number | null;
};

export function TicketDetail() {
  const id = Number(useParams().ticketId);
  const queryClient = useQueryClient();
  const ticket = useTicket(id);
  const team = useTeamDirectory().data ?? [];
  // Opened: no longer counted as new or changed (and not while it stays open either).
  const seenAt = ticket.dataUpdatedAt;
  useEffect(() => ticketAlerts.seen(id), [id, seenAt]);
  const update = useMutation({
    mutationFn: (change: TicketChange) =>
      unwrap(
        api.PATCH('/api/agent/tickets/{ticket}', {
          params: { path: { ticket: id } },
          body: change,
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.tickets.one(id), result.data);
      void queryClient.invalidateQueries({ queryKey: keys.tickets.all });
    },
  });

  if (ticket.isPending) {
    return (
      <Center p="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (!ticket.data) {
    return (
      <Container py="lg">
        <Alert color="red" role="alert">
          {t('tickets.detail.error')}
        </Alert>
      </Container>
    );
  }
  const data = ticket.data;
  const customer = [data.customer_name, data.customer_email].filter(Boolean).join(' · ');

  return (
    <Container size="xl" py="lg">
      <Anchor component={Link} to="/tickets" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('tickets.detail.back')}
        </Group>
      </Anchor>
      <Group gap="sm" mt="sm" mb="lg" align="center">
        <Text ff="monospace" c="dimmed">
          {data.ticket_number}
        </Text>
        <Title order={1} size="h2">
          {data.subject}
        </Title>
        <Badge variant="light" color={STATUS_COLOR[data.status]}>
          {t(`tickets.status.${data.status}`)}
        </Badge>
        <Badge variant="dot" color={PRIORITY_COLOR[data.priority]}>
          {t(`tickets.priority.${data.priority}`)}
        </Badge>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack>
            <Paper withBorder radius="md" p="lg">
              <Title order={2} size="h5" mb="xs">
                {t('tickets.detail.description')}
              </Title>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{data.description}</Text>
            </Paper>
            <Title order={2} size="h4">
              {t('tickets.detail.comments')}
            </Title>
            <Stack gap="sm" role="log" aria-label={t('tickets.detail.comments')}>
              {data.comments.length === 0 && (
                <Text c="dimmed" size="sm">
                  {t('tickets.detail.noComments')}
                </Text>
              )}
              {data.comments.map((comment) => (
                <Paper
                  key={comment.id}
                  withBorder
                  radius="md"
                  p="md"
                  bg={comment.is_internal ? 'var(--mantine-color-yellow-0)' : undefined}
                  style={
                    comment.is_internal
                      ? { borderStyle: 'dashed', borderColor: 'var(--mantine-color-yellow-6)' }
                      : undefined
                  }
                >
                  <Group justify="space-between" mb={6}>
                    <Group gap="xs">
                      <Text fw={600} size="sm">
                        {commentAuthor(comment, team)}
                      </Text>
                      {comment.is_internal && (
                        <Badge
                          size="xs"
                          color="yellow"
                          variant="filled"
                          leftSection={<IconLock size={10} />}
                        >
                          {t('tickets.detail.internal')}
                        </Badge>
                      )}
                      {comment.sender_mismatch && (
                        <Badge
                          size="xs"
                          color="orange"
                          variant="light"
                          title={t('tickets.detail.senderMismatchHint')}
                        >
                          {t('tickets.detail.senderMismatch')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {longTime(comment.created_at)}
                    </Text>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {comment.body}
                  </Text>
                </Paper>
              ))}
            </Stack>
            <CommentForm ticketId={id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack>
            <Paper withBorder radius="md" p="lg">
              <Stack>
                <NativeSelect
                  label={t('tickets.filter.status')}
                  data={statusOptions}
                  value={data.status}
                  disabled={update.isPending}
                  onChange={(e) =>
                    update.mutate({ status: e.currentTarget.value as Ticket['status'] })
                  }
                />
                <NativeSelect
                  label={t('tickets.filter.priority')}
                  data={priorityOptions}
                  value={data.priority}
                  disabled={update.isPending}
                  onChange={(e) =>
                    update.mutate({ priority: e.currentTarget.value as Ticket['priority'] })
                  }
                />
                <NativeSelect
                  label={t('tickets.filter.assignee')}
                  data={[
                    { value: '', label: t('tickets.filter.unassigned') },
                    ...agentOptions(team),
                  ]}
                  value={data.assigned_agent_id === null ? '' : String(data.assigned_agent_id)}
                  disabled={update.isPending}
                  onChange={(e) =>
                    update.mutate({
                      assigned_agent_id: e.currentTarget.value
                        ? Number(e.currentTarget.value)
                        : null,
                    })
                  }
                />
                {update.error && (
                  <Text c="red" size="sm" role="alert">
                    {t('tickets.error', { message: update.error.message })}
                  </Text>
                )}
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    {t('tickets.detail.customer')}
                  </Text>
                  <Text size="sm">{customer || '—'}</Text>
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    {t('tickets.detail.source')}
                  </Text>
                  <Text size="sm" tt="capitalize">
                    {data.source}
                  </Text>
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    {t('tickets.detail.created')}
                  </Text>
                  <Text size="sm">{longTime(data.created_at)}</Text>
                </Stack>
                {data.conversation_id !== null && (
                  <Stack gap={2}>
                    <Text size="xs" c="dimmed">
                      {t('tickets.detail.fromChat')}
                    </Text>
                    <Anchor component={Link} to={`/inbox/${data.conversation_id}`} size="sm">
                      {t('tickets.detail.openChat')}
                    </Anchor>
                  </Stack>
                )}
              </Stack>
            </Paper>
            <CustomerHistory ticketId={id} />
            <TicketActivity activity={data.activity} team={team} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

function commentAuthor(comment: Ticket['comments'][number], team: Member[]): string {
  switch (comment.author_type) {
    case 'agent':
      return team.find((a) => a.id === comment.author_id)?.name ?? t('tickets.detail.agent');
    case 'visitor':
      return t('tickets.detail.visitorAuthor');
    case 'customer':
      // The customer answering by mail (email tickets): the same label.
      return t('tickets.detail.visitorAuthor');
    case 'system':
      return t('tickets.detail.system');
  }
}

function CommentForm({ ticketId }: { ticketId: number }) {
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [kind, setKind] = useState<'public' | 'internal'>('public');
  const comment = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/tickets/{ticket}/comments', {
          params: { path: { ticket: ticketId } },
          body: { body, is_internal: kind === 'internal' },
        }),
      ),
    onSuccess: () => {
      setBody('');
      void queryClient.invalidateQueries({ queryKey: keys.tickets.one(ticketId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim()) comment.mutate();
  };
  const internal = kind === 'internal';
  return (
    <Paper
      component="form"
      onSubmit={submit}
      withBorder
      radius="md"
      p="md"
      bg={internal ? 'var(--mantine-color-yellow-0)' : undefined}
    >
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t('tickets.comment.kind')}
          value={kind}
          onChange={setKind}
          data={[
            { value: 'public', label: t('tickets.detail.public') },
            { value: 'internal', label: t('tickets.detail.internal') },
          ]}
          color={internal ? 'yellow' : 'indigo'}
          w="fit-content"
        />
        <Textarea
          label={t('tickets.comment.label')}
          description={internal ? t('tickets.comment.internalHint') : undefined}
          autosize
          minRows={3}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
        />
        {comment.error && (
          <Text c="red" size="sm" role="alert">
            {t('tickets.error', { message: comment.error.message })}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={comment.isPending}
            disabled={!body.trim()}
            color={internal ? 'yellow' : 'indigo'}
          >
            {t('tickets.comment.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
