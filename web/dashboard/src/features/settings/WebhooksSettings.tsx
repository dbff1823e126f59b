import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { t } from '../../i18n';
import {
  CopyField,
  fieldErrorsOf,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
  Tag,
} from './ui';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

export default function WebhooksSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [created, setCreated] = useState<{ id: number; url: string; secret: string } | null>(null);
  const hooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: () => unwrap(api.GET('/api/agent/webhooks', { params: { query: { per_page: 100 } } })),
  });
  return (
    <>
      <SectionHeader
        title={t('settings.webhooks.title')}
        description={t('settings.webhooks.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      {created && (
        <Alert
          color="teal"
          title={t('settings.webhooks.createdTitle')}
          mb="lg"
          withCloseButton
          closeButtonLabel={t('settings.notice.dismiss')}
          onClose={() => setCreated(null)}
        >
          <Stack gap="xs">
            <Text size="sm">{t('settings.webhooks.secretOnce')}</Text>
            <CopyField label={t('settings.webhooks.secret')} value={created.secret} />
            <Anchor component={Link} to={`/settings/webhooks/${created.id}`} size="sm">
              {t('settings.webhooks.openLog', { url: created.url })}
            </Anchor>
          </Stack>
        </Alert>
      )}
      <CreateWebhookForm
        onCreated={(id, url, secret) => {
          setCreated({ id, url, secret });
          void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
        }}
      />
      <QueryState loading={hooks.isPending} error={hooks.error} />
      {hooks.data && hooks.data.data.length === 0 && (
        <Text c="dimmed" mt="lg">
          {t('settings.webhooks.empty')}
        </Text>
      )}
      {hooks.data && hooks.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={720} mt="lg">
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.webhooks.url')}</Table.Th>
                <Table.Th>{t('settings.webhooks.events')}</Table.Th>
                <Table.Th>{t('settings.webhooks.state')}</Table.Th>
                <Table.Th>{t('settings.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hooks.data.data.map((hook) => (
                <Table.Tr key={hook.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Text fw={500} size="sm">
                      {hook.url}
                    </Text>
                    {hook.description && (
                      <Text size="xs" c="dimmed">
                        {hook.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{hook.events.join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Tag color={hook.is_active ? 'teal' : 'red'}>
                      {hook.is_active
                        ? t('settings.webhooks.active')
                        : t('settings.webhooks.disabled')}
                    </Tag>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      component={Link}
                      to={`/settings/webhooks/${hook.id}`}
                      size="xs"
                      variant="light"
                      aria-label={t('settings.webhooks.manageNamed', { url: hook.url })}
                    >
                      {t('settings.webhooks.manage')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

export function EventCheckboxes({
  value,
  onChange,
  error,
}: {
  value: WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
  error?: string;
}) {
  return (
    <Checkbox.Group
      label={t('settings.webhooks.events')}
      value={value}
      onChange={(events) => onChange(events)}
      error={error}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs">
        {WEBHOOK_EVENTS.map((event) => (
          <Checkbox key={event} value={event} label={event} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

function CreateWebhookForm({
  onCreated,
}: {
  onCreated: (id: number, url: string, secret: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['conversation.started']);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/webhooks', {
          body: { url, events, is_active: true, ...(description ? { description } : {}) },
        }),
      ),
    onSuccess: (result) => {
      setUrl('');
      setDescription('');
      onCreated(result.data.id, result.data.url, result.signing_secret);
    },
  });
  const errors = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="new-webhook">
      <Title order={3} size="h4" id="new-webhook" mb="sm">
        {t('settings.webhooks.create')}
      </Title>
      <Stack>
        {create.error && !Object.keys(errors).length && (
          <Text c="red" role="alert">
            {create.error.message}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('settings.webhooks.url')}
            placeholder="https://example.com/hooks/support"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.url}
            required
          />
          <TextInput
            label={t('settings.webhooks.descriptionLabel')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
        </SimpleGrid>
        <EventCheckboxes
          value={events}
          onChange={setEvents}
          error={
            errors.events ?? Object.entries(errors).find(([k]) => k.startsWith('events.'))?.[1]
          }
        />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('settings.webhooks.createButton')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
