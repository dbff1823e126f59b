import { Button, Group, Select, SimpleGrid, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { useSiteNames } from '../../../api/queries';
import { t, type MessageKey } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import {
  ConfirmButton,
  CopyField,
  EditButton,
  fieldErrorsOf,
  formatDateTime,
  NoticeBar,
  SectionHeader,
  Tag,
  useNotice,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useEmailInboxes, useMailLog } from './queries';

/** The latest mails shown in the log (the API pages further; the newest are what one checks). */
const STATUS_COLOR: Record<string, string> = { queued: 'gray', sent: 'teal', failed: 'red' };

/**
 * Email (DESIGN section 9): the support addresses whose mail opens tickets, with the forwarding
 * address to send them to, and the mail log with a test mail to see that sending works.
 */
export default function EmailSettings() {
  return (
    <>
      <SectionHeader
        title={t('settings.email.title')}
        description={t('settings.email.description')}
      />
      <Inboxes />
      <MailLog />
    </>
  );
}

function Inboxes() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const sites = useSiteNames();
  const inboxes = useEmailInboxes();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.emailInboxes.all });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/email-inboxes/{inbox}', { params: { path: { inbox: id } } })),
    onSuccess: () => {
      notice.success(t('settings.email.inboxDeleted'));
      void refresh();
    },
    onError: notice.failure,
  });
  const siteName = (id: number) => sites.data?.find((site) => site.id === id)?.name ?? '';
  return (
    <section aria-labelledby="email-inboxes">
      <Title order={2} size="h3" id="email-inboxes" mt="md" mb="xs">
        {t('settings.email.inboxes')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('settings.email.inboxesHelp')}
      </Text>
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <CreateInboxForm
        onCreated={(address) => {
          notice.success(t('settings.email.inboxCreated', { address }));
          void refresh();
        }}
      />
      <ListTable
        items={inboxes.data}
        loading={inboxes.isPending}
        error={inboxes.error}
        empty={t('settings.email.noInboxes')}
        rowKey={(inbox) => inbox.id}
        minWidth={820}
        columns={[
          {
            key: 'address',
            header: t('settings.email.address'),
            cell: (inbox) => (
              <>
                <Text fw={500} size="sm">
                  {inbox.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {inbox.address}
                  {siteName(inbox.site_id) && ` · ${siteName(inbox.site_id)}`}
                </Text>
              </>
            ),
          },
          {
            key: 'forwarding',
            header: t('settings.email.forwarding'),
            cell: (inbox) => (
              <CopyField
                label={t('settings.email.forwardingOf', { address: inbox.address })}
                value={inbox.forwarding_address}
                compact
              />
            ),
          },
          {
            key: 'ack',
            header: t('settings.email.acknowledge'),
            cell: (inbox) => (
              <Tag color={inbox.acknowledge ? 'teal' : 'gray'}>
                {inbox.acknowledge ? t('settings.email.on') : t('settings.email.off')}
              </Tag>
            ),
          },
          {
            key: 'actions',
            header: t('settings.actions'),
            cell: (inbox) => (
              <Group gap="xs" wrap="nowrap">
                <EditInbox inbox={inbox} onSaved={() => void refresh()} />
                <ConfirmButton
                  label={t('settings.email.delete')}
                  title={t('settings.email.deleteTitle')}
                  message={t('settings.email.deleteMessage', { address: inbox.address })}
                  confirmLabel={t('settings.email.delete')}
                  onConfirm={() => remove.mutate(inbox.id)}
                />
              </Group>
            ),
          },
        ]}
      />
    </section>
  );
}

interface InboxFields {
  name: string;
  address: string;
  siteId: string | null;
  acknowledge: boolean;
}

function InboxFieldset({
  value,
  onChange,
  errors,
}: {
  value: InboxFields;
  onChange: (value: InboxFields) => void;
  errors: Record<string, string>;
}) {
  const sites = useSiteNames();
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('settings.email.name')}
          placeholder={t('settings.email.namePlaceholder')}
          value={value.name}
          onChange={(e) => onChange({ ...value, name: e.currentTarget.value })}
          error={errors.name}
          required
        />
        <TextInput
          label={t('settings.email.address')}
          placeholder="support@example.com"
          type="email"
          value={value.address}
          onChange={(e) => onChange({ ...value, address: e.currentTarget.value })}
          error={errors.address}
          required
        />
      </SimpleGrid>
      {sites.data && sites.data.length > 1 && (
        <Select
          label={t('settings.email.site')}
          description={t('settings.email.siteHelp')}
          data={sites.data.map((site) => ({ value: String(site.id), label: site.name }))}
          value={value.siteId}
          onChange={(siteId) => onChange({ ...value, siteId })}
          error={errors.site_id}
          maw={320}
        />
      )}
      <Switch
        label={t('settings.email.acknowledgeLabel')}
        description={t('settings.email.acknowledgeHelp')}
        checked={value.acknowledge}
        onChange={(e) => onChange({ ...value, acknowledge: e.currentTarget.checked })}
      />
    </>
  );
}

const inboxBody = (fields: InboxFields) => ({
  name: fields.name,
  address: fields.address,
  acknowledge: fields.acknowledge,
  ...(fields.siteId ? { site_id: Number(fields.siteId) } : {}),
});

function CreateInboxForm({ onCreated }: { onCreated: (address: string) => void }) {
  const empty: InboxFields = { name: '', address: '', siteId: null, acknowledge: true };
  const [fields, setFields] = useState(empty);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/email-inboxes', { body: inboxBody(fields) })),
    onSuccess: (result) => {
      setFields(empty);
      onCreated(result.data.address);
    },
  });
  return (
    <FormCard
      id="new-inbox"
      title={t('settings.email.create')}
      submitLabel={t('settings.email.createButton')}
      submitting={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate()}
    >
      <InboxFieldset value={fields} onChange={setFields} errors={fieldErrorsOf(create.error)} />
    </FormCard>
  );
}

function EditInbox({
  inbox,
  onSaved,
}: {
  inbox: { id: number; name: string; address: string; site_id: number; acknowledge: boolean };
  onSaved: () => void;
}) {
  const [fields, setFields] = useState<InboxFields>({
    name: inbox.name,
    address: inbox.address,
    siteId: String(inbox.site_id),
    acknowledge: inbox.acknowledge,
  });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/email-inboxes/{inbox}', {
          params: { path: { inbox: inbox.id } },
          body: inboxBody(fields),
        }),
      ),
    onSuccess: onSaved,
  });
  return (
    <EditButton
      label={t('settings.email.edit')}
      title={t('settings.email.editTitle', { address: inbox.address })}
      onOpen={() =>
        setFields({
          name: inbox.name,
          address: inbox.address,
          siteId: String(inbox.site_id),
          acknowledge: inbox.acknowledge,
        })
      }
      onSave={() => save.mutateAsync()}
      saving={save.isPending}
      error={save.error}
    >
      <InboxFieldset value={fields} onChange={setFields} errors={fieldErrorsOf(save.error)} />
    </EditButton>
  );
}

function MailLog() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const log = useMailLog();
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/mail-log/test', { body: {} })),
    onSuccess: (result) => {
      notice.success(t('settings.email.testQueued', { address: result.data.recipient }));
      void queryClient.invalidateQueries({ queryKey: keys.mailLog.all });
    },
    onError: notice.failure,
  });
  return (
    <section aria-labelledby="mail-log">
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3" id="mail-log">
          {t('settings.email.log')}
        </Title>
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            onClick={() => void queryClient.invalidateQueries({ queryKey: keys.mailLog.all })}
          >
            {t('settings.email.refresh')}
          </Button>
          <Button size="xs" onClick={() => test.mutate()} loading={test.isPending}>
            {t('settings.email.sendTest')}
          </Button>
        </Group>
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        {t('settings.email.logHelp')}
      </Text>
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <ListTable
        items={log.data?.data}
        loading={log.isPending}
        error={log.error}
        empty={t('settings.email.noMail')}
        rowKey={(mail) => mail.id}
        minWidth={860}
        columns={[
          {
            key: 'when',
            header: t('settings.email.when'),
            cell: (mail) => <Text size="sm">{formatDateTime(mail.created_at)}</Text>,
          },
          {
            key: 'kind',
            header: t('settings.email.kind'),
            cell: (mail) => <Text size="sm">{kindLabel(mail.kind)}</Text>,
          },
          {
            key: 'mail',
            header: t('settings.email.mail'),
            props: { style: { wordBreak: 'break-word' } },
            cell: (mail) => (
              <>
                <Text size="sm" fw={500}>
                  {mail.subject}
                </Text>
                <Text size="xs" c="dimmed">
                  {mail.recipient}
                </Text>
              </>
            ),
          },
          {
            key: 'status',
            header: t('settings.email.status'),
            cell: (mail) => (
              <>
                {mail.held_until ? (
                  <>
                    <Tag color="orange">{t('settings.email.status.waiting')}</Tag>
                    <Text size="xs" c="dimmed" mt={4}>
                      {t('settings.email.held.new_recipient_budget', {
                        time: formatDateTime(mail.held_until),
                      })}
                    </Text>
                  </>
                ) : (
                  <Tag color={STATUS_COLOR[mail.status] ?? 'gray'}>{statusLabel(mail.status)}</Tag>
                )}
                {mail.last_error && (
                  <Text size="xs" c="dimmed" mt={4}>
                    {t('settings.email.attempts', { count: mail.attempts })}: {mail.last_error}
                  </Text>
                )}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

const KIND_LABELS: Record<string, MessageKey> = {
  login_code: 'settings.email.kind.login_code',
  test: 'settings.email.kind.test',
  conversation_reply: 'settings.email.kind.conversation_reply',
  ticket_acknowledgement: 'settings.email.kind.ticket_acknowledgement',
  ticket_reply: 'settings.email.kind.ticket_reply',
  appointment_confirmation: 'settings.email.kind.appointment_confirmation',
  appointment_cancellation: 'settings.email.kind.appointment_cancellation',
  transcript: 'settings.email.kind.transcript',
  agent_notification: 'settings.email.kind.agent_notification',
  team_invitation: 'settings.email.kind.team_invitation',
  password_reset: 'settings.email.kind.password_reset',
  email_verification: 'settings.email.kind.email_verification',
};

/** A mail kind in words; a kind this dashboard does not know yet is shown as the API names it. */
const kindLabel = (kind: string): string => (KIND_LABELS[kind] ? t(KIND_LABELS[kind]) : kind);

const statusLabel = (status: string): string =>
  status === 'sent'
    ? t('settings.email.status.sent')
    : status === 'failed'
      ? t('settings.email.status.failed')
      : t('settings.email.status.queued');
