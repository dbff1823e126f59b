import { Alert, Anchor, Button, Checkbox, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import { CopyField, fieldErrorsOf, NoticeBar, SectionHeader, useNotice, Tag } from '../kit/ui';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';
import { keys } from '../../../api/keys';
import { useWebhooks } from './queries';

export default function WebhooksSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [created, setCreated] = useState<{ id: number; url: string; secret: string } | null>(null);
  const hooks = useWebhooks();
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
          void queryClient.invalidateQueries({ queryKey: keys.webhooks.all });
        }}
      />
      <ListTable
        items={hooks.data}
        loading={hooks.isPending}
        error={hooks.error}
        empty={t('settings.webhooks.empty')}
        rowKey={(hook) => hook.id}
        columns={[
          {
            key: 'url',
            header: t('settings.webhooks.url'),
            props: { style: { wordBreak: 'break-all' } },
            cell: (hook) => (
              <>
                <Text fw={500} size="sm">
                  {hook.url}
                </Text>
                {hook.description && (
                  <Text size="xs" c="dimmed">
                    {hook.description}
                  </Text>
                )}
              </>
            ),
          },
          {
            key: 'events',
            header: t('settings.webhooks.events'),
            cell: (hook) => <Text size="sm">{hook.events.join(', ')}</Text>,
          },
          {
            key: 'state',
            header: t('settings.webhooks.state'),
            cell: (hook) => (
              <Tag color={hook.is_active ? 'teal' : 'red'}>
                {hook.is_active ? t('settings.webhooks.active') : t('settings.webhooks.disabled')}
              </Tag>
            ),
          },
          {
            key: 'actions',
            header: t('settings.actions'),
            cell: (hook) => (
              <Button
                component={Link}
                to={`/settings/webhooks/${hook.id}`}
                size="xs"
                variant="light"
                aria-label={t('settings.webhooks.manageNamed', { url: hook.url })}
              >
                {t('settings.webhooks.manage')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** The address and description of an endpoint, as created and as edited. */
export function EndpointFields({
  url,
  description,
  onUrl,
  onDescription,
  errors,
}: {
  url: string;
  description: string;
  onUrl: (url: string) => void;
  onDescription: (description: string) => void;
  errors: Record<string, string>;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        label={t('settings.webhooks.url')}
        placeholder="https://example.com/hooks/support"
        value={url}
        onChange={(e) => onUrl(e.currentTarget.value)}
        error={errors.url && urlError(url)}
        required
      />
      <TextInput
        label={t('settings.webhooks.descriptionLabel')}
        value={description}
        onChange={(e) => onDescription(e.currentTarget.value)}
        error={errors.description && t('settings.webhooks.error.description')}
        maxLength={255}
      />
    </SimpleGrid>
  );
}

/**
 * The catalog's sentence for a refused endpoint address (the server's text names the wire field):
 * a plain http:// one says which operator setting decides, as only the operator can change it.
 */
function urlError(url: string): string {
  return /^http:\/\//i.test(url.trim())
    ? t('settings.webhooks.error.insecure')
    : t('settings.webhooks.error.url');
}

/** The events an endpoint subscribes to; an error on the list or on one event shows under it. */
export function EventCheckboxes({
  value,
  onChange,
  errors,
}: {
  value: WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
  errors: Record<string, string>;
}) {
  const error =
    errors.events ?? Object.entries(errors).find(([key]) => key.startsWith('events.'))?.[1];
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
  return (
    <FormCard
      id="new-webhook"
      title={t('settings.webhooks.create')}
      submitLabel={t('settings.webhooks.createButton')}
      submitting={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate()}
    >
      <EndpointFields
        url={url}
        description={description}
        onUrl={setUrl}
        onDescription={setDescription}
        errors={errors}
      />
      <EventCheckboxes value={events} onChange={setEvents} errors={errors} />
    </FormCard>
  );
}
