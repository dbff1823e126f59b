import {
  Anchor,
  Button,
  Card,
  Code,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import {
  ConfirmButton,
  fieldErrorsOf,
  formatDateTime,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
  Tag,
} from '../kit/ui';
import type { WebhookEvent } from './webhook-events';
import { EndpointFields, EventCheckboxes } from './WebhooksSettings';
import { keys } from '../../../api/keys';
import { useWebhook, useWebhookDeliveries } from './queries';

type Endpoint = Schemas['WebhookEndpointDto'];
type Delivery = Schemas['WebhookDeliveryDto'];

export default function WebhookDetail() {
  const id = Number(useParams().webhookId);
  const notice = useNotice();
  const hook = useWebhook(id);
  return (
    <>
      <Anchor component={Link} to="/settings/webhooks" size="sm">
        {t('settings.webhooks.back')}
      </Anchor>
      <SectionHeader title={t('settings.webhooks.detailTitle')} description={hook.data?.data.url} />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={hook.isPending} error={hook.error} />
      {hook.data && (
        <Stack gap="xl">
          <EditWebhook key={hook.data.data.updated_at} endpoint={hook.data.data} notice={notice} />
          <DeliveriesLog endpoint={hook.data.data} notice={notice} />
        </Stack>
      )}
    </>
  );
}

function EditWebhook({
  endpoint,
  notice,
}: {
  endpoint: Endpoint;
  notice: ReturnType<typeof useNotice>;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(endpoint.events);
  const [active, setActive] = useState(endpoint.is_active);
  const path = { params: { path: { webhook: endpoint.id } } };
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/webhooks/{webhook}', {
          ...path,
          body: { url, description, events, is_active: active },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.webhooks.one(endpoint.id), result);
      void queryClient.invalidateQueries({ queryKey: keys.webhooks.all, exact: true });
      notice.success(t('settings.saved'));
    },
    onError: notice.failure,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/agent/webhooks/{webhook}', path)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.webhooks.all, exact: true });
      void navigate('/settings/webhooks');
    },
    onError: notice.failure,
  });
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="edit-webhook">
      <Title order={3} size="h4" id="edit-webhook" mb="sm">
        {t('settings.webhooks.endpoint')}
      </Title>
      <Stack>
        {endpoint.disabled_at && (
          <Text c="red" size="sm">
            {t('settings.webhooks.disabledBecause', {
              when: formatDateTime(endpoint.disabled_at),
              reason: endpoint.disabled_reason ?? '',
            })}
          </Text>
        )}
        <EndpointFields
          url={url}
          description={description}
          onUrl={setUrl}
          onDescription={setDescription}
          errors={errors}
        />
        <Text size="sm">
          {t('settings.webhooks.secretPrefix')} <Code>{endpoint.secret_prefix}…</Code>
        </Text>
        <EventCheckboxes value={events} onChange={setEvents} errors={errors} />
        <Group justify="space-between">
          <Switch
            label={t('settings.webhooks.activeSwitch')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
          />
          <Group>
            <ConfirmButton
              label={t('settings.webhooks.delete')}
              title={t('settings.webhooks.deleteTitle')}
              message={t('settings.webhooks.deleteMessage', { url: endpoint.url })}
              confirmLabel={t('settings.webhooks.deleteConfirm')}
              onConfirm={() => remove.mutate()}
            />
            <Button type="submit" loading={save.isPending}>
              {t('settings.webhooks.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

const statusColor = { pending: 'yellow', succeeded: 'teal', failed: 'red' } as const;

/** Why a test ping failed: the endpoint's status code, or what stopped the request. */
function pingFailure(delivery: Delivery): string {
  const last = delivery.attempt_log.at(-1);
  if (last?.status_code) return t('settings.webhooks.pingRefused', { status: last.status_code });
  return t('settings.webhooks.pingUnreachable', { error: last?.error ?? '' });
}

function DeliveriesLog({
  endpoint,
  notice,
}: {
  endpoint: Endpoint;
  notice: ReturnType<typeof useNotice>;
}) {
  const queryClient = useQueryClient();
  const deliveries = useWebhookDeliveries(endpoint.id);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: keys.webhooks.deliveries(endpoint.id) });
  const ping = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/webhooks/{webhook}/test', {
          params: { path: { webhook: endpoint.id } },
        }),
      ),
    onSuccess: (result) => {
      // The call worked; the ping may not have: a failure is announced as one (red, an alert).
      if (result.data.status === 'failed') notice.problem(pingFailure(result.data));
      else {
        notice.success(
          t('settings.webhooks.pinged', {
            status: t(`settings.webhooks.status.${result.data.status}`),
          }),
        );
      }
      void refresh();
    },
    onError: notice.failure,
  });
  const redeliver = useMutation({
    mutationFn: (delivery: string) =>
      unwrap(
        api.POST('/api/agent/webhooks/{webhook}/deliveries/{delivery}/redeliver', {
          params: { path: { webhook: endpoint.id, delivery } },
        }),
      ),
    onSuccess: () => {
      notice.success(t('settings.webhooks.redelivering'));
      void refresh();
    },
    onError: notice.failure,
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="deliveries">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="deliveries">
          {t('settings.webhooks.deliveries')}
        </Title>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => void refresh()}>
            {t('settings.webhooks.refresh')}
          </Button>
          <Button size="xs" onClick={() => ping.mutate()} loading={ping.isPending}>
            {t('settings.webhooks.ping')}
          </Button>
        </Group>
      </Group>
      <QueryState loading={deliveries.isPending} error={deliveries.error} />
      {deliveries.data && deliveries.data.data.length === 0 && (
        <Text c="dimmed">{t('settings.webhooks.noDeliveries')}</Text>
      )}
      <Stack>
        {deliveries.data?.data.map((delivery) => (
          <DeliveryCard
            key={delivery.id}
            delivery={delivery}
            onRedeliver={() => redeliver.mutate(delivery.id)}
            redelivering={redeliver.isPending && redeliver.variables === delivery.id}
          />
        ))}
      </Stack>
    </Card>
  );
}

function DeliveryCard({
  delivery,
  onRedeliver,
  redelivering,
}: {
  delivery: Delivery;
  onRedeliver: () => void;
  redelivering: boolean;
}) {
  const label = t('settings.webhooks.deliveryNamed', {
    event: delivery.event,
    when: formatDateTime(delivery.created_at),
  });
  return (
    <Card withBorder padding="sm" component="article" aria-label={label}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={600} size="sm">
            {delivery.event}
          </Text>
          <Tag color={statusColor[delivery.status]}>
            {t(`settings.webhooks.status.${delivery.status}`)}
          </Tag>
          <Text size="xs" c="dimmed">
            {formatDateTime(delivery.created_at)} ·{' '}
            {t('settings.webhooks.attemptCount', { count: delivery.attempts })}
          </Text>
        </Group>
        <Button
          size="xs"
          variant="light"
          onClick={onRedeliver}
          loading={redelivering}
          aria-label={t('settings.webhooks.redeliverNamed', { event: delivery.event })}
        >
          {t('settings.webhooks.redeliver')}
        </Button>
      </Group>
      {delivery.attempt_log.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table fz="xs" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.webhooks.attempt')}</Table.Th>
                <Table.Th>{t('settings.webhooks.started')}</Table.Th>
                <Table.Th>{t('settings.webhooks.statusCode')}</Table.Th>
                <Table.Th>{t('settings.webhooks.duration')}</Table.Th>
                <Table.Th>{t('settings.webhooks.response')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {delivery.attempt_log.map((attempt) => (
                <Table.Tr key={attempt.attempt}>
                  <Table.Td>{attempt.attempt}</Table.Td>
                  <Table.Td>{formatDateTime(attempt.started_at)}</Table.Td>
                  <Table.Td>
                    <Tag color={attempt.status_code && attempt.status_code < 300 ? 'teal' : 'red'}>
                      {attempt.status_code ?? t('settings.webhooks.noStatus')}
                    </Tag>
                  </Table.Td>
                  <Table.Td>{t('settings.webhooks.ms', { ms: attempt.duration_ms })}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {attempt.error ? (
                      <Text c="red" size="xs">
                        {attempt.error}
                      </Text>
                    ) : null}
                    {attempt.response_excerpt ? <Code>{attempt.response_excerpt}</Code> : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {delivery.status === 'pending' && delivery.next_attempt_at && (
        <Text size="xs" c="dimmed" mt="xs">
          {t('settings.webhooks.nextAttempt', { when: formatDateTime(delivery.next_attempt_at) })}
        </Text>
      )}
    </Card>
  );
}
