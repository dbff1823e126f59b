import {
  Badge,
  Button,
  Card,
  ColorInput,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { useCannedResponses, useLabels } from '../../../api/queries';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import {
  ConfirmButton,
  EditButton,
  fieldErrorsOf,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
} from '../kit/ui';
import { keys } from '../../../api/keys';

/** Canned responses: organization-wide replies an agent inserts with `/shortcut`. */
export function CannedResponsesSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [shortcut, setShortcut] = useState('');
  const [body, setBody] = useState('');
  const list = useCannedResponses();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.canned.all });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/canned-responses', { body: { shortcut, body } })),
    onSuccess: () => {
      notice.success(t('settings.canned.added', { shortcut }));
      setShortcut('');
      setBody('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.DELETE('/api/agent/canned-responses/{canned_response}', {
          params: { path: { canned_response: id } },
        }),
      ),
    onSuccess: () => {
      notice.success(t('settings.canned.removed'));
      void refresh();
    },
    onError: notice.failure,
  });
  const [draft, setDraft] = useState({ shortcut: '', body: '' });
  const update = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.PATCH('/api/agent/canned-responses/{canned_response}', {
          params: { path: { canned_response: id } },
          body: draft,
        }),
      ),
    onSuccess: () => {
      notice.success(t('settings.canned.updated', { shortcut: draft.shortcut }));
      void refresh();
    },
  });
  const draftErrors = fieldErrorsOf(update.error);
  const errors = fieldErrorsOf(create.error);
  return (
    <>
      <SectionHeader
        title={t('settings.canned.title')}
        description={t('settings.canned.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <FormCard
        id="new-canned"
        title={t('settings.canned.add')}
        submitLabel={t('settings.canned.addButton')}
        submitting={create.isPending}
        error={create.error}
        onSubmit={() => create.mutate()}
      >
        <TextInput
          label={t('settings.canned.shortcut')}
          description={t('settings.canned.shortcutHint')}
          leftSection="/"
          value={shortcut}
          onChange={(e) => setShortcut(e.currentTarget.value)}
          error={errors.shortcut}
          required
          maw={320}
        />
        <Textarea
          label={t('settings.canned.body')}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          error={errors.body}
          autosize
          minRows={3}
          required
        />
      </FormCard>
      <ListTable
        items={list.data}
        loading={list.isPending}
        error={list.error}
        empty={t('settings.canned.empty')}
        rowKey={(item) => item.id}
        minWidth={480}
        columns={[
          {
            key: 'shortcut',
            header: t('settings.canned.shortcut'),
            props: { fw: 600 },
            cell: (item) => `/${item.shortcut}`,
          },
          {
            key: 'body',
            header: t('settings.canned.body'),
            props: { style: { whiteSpace: 'pre-wrap' } },
            cell: (item) => item.body,
          },
          {
            key: 'actions',
            header: t('settings.actions'),
            cell: (item) => (
              <>
                <EditButton
                  label={t('settings.canned.edit', { shortcut: item.shortcut })}
                  title={t('settings.canned.editTitle')}
                  onOpen={() => {
                    update.reset();
                    setDraft({ shortcut: item.shortcut, body: item.body });
                  }}
                  onSave={() => update.mutateAsync(item.id)}
                  saving={update.isPending}
                  error={update.error}
                >
                  <TextInput
                    label={t('settings.canned.shortcut')}
                    description={t('settings.canned.shortcutHint')}
                    leftSection="/"
                    value={draft.shortcut}
                    onChange={(e) => setDraft({ ...draft, shortcut: e.currentTarget.value })}
                    error={draftErrors.shortcut}
                    required
                    data-autofocus
                  />
                  <Textarea
                    label={t('settings.canned.body')}
                    value={draft.body}
                    onChange={(e) => setDraft({ ...draft, body: e.currentTarget.value })}
                    error={draftErrors.body}
                    autosize
                    minRows={3}
                    required
                  />
                </EditButton>
                <ConfirmButton
                  label={t('settings.canned.remove', { shortcut: item.shortcut })}
                  title={t('settings.canned.removeTitle')}
                  message={t('settings.canned.removeMessage', { shortcut: item.shortcut })}
                  confirmLabel={t('settings.canned.removeConfirm')}
                  onConfirm={() => remove.mutate(item.id)}
                />
              </>
            ),
          },
        ]}
      />
    </>
  );
}

/** Labels agents put on conversations and filter the inbox by. */
export function LabelsSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [name, setName] = useState('');
  const [color, setColor] = useState('#4c6ef5');
  const list = useLabels();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.labels.all });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/labels', { body: { name, color } })),
    onSuccess: () => {
      notice.success(t('settings.labels.added', { name }));
      setName('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/labels/{label}', { params: { path: { label: id } } })),
    onSuccess: () => {
      notice.success(t('settings.labels.removed'));
      void refresh();
    },
    onError: notice.failure,
  });
  const [draft, setDraft] = useState({ name: '', color: '' });
  const update = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.PATCH('/api/agent/labels/{label}', { params: { path: { label: id } }, body: draft }),
      ),
    onSuccess: () => {
      notice.success(t('settings.labels.updated', { name: draft.name }));
      void refresh();
    },
  });
  const draftErrors = fieldErrorsOf(update.error);
  const errors = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <>
      <SectionHeader
        title={t('settings.labels.title')}
        description={t('settings.labels.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="new-label">
        <Title order={3} size="h4" id="new-label" mb="sm">
          {t('settings.labels.add')}
        </Title>
        {create.error && !Object.keys(errors).length && (
          <Text c="red" role="alert" mb="sm">
            {create.error.message}
          </Text>
        )}
        <Group align="flex-start">
          <TextInput
            label={t('settings.labels.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
          />
          <ColorInput
            label={t('settings.labels.color')}
            value={color}
            onChange={setColor}
            format="hex"
            withEyeDropper={false}
            error={errors.color}
          />
          <Button type="submit" loading={create.isPending} mt={25}>
            {t('settings.labels.addButton')}
          </Button>
        </Group>
      </Card>
      <QueryState loading={list.isPending} error={list.error} />
      {list.data && list.data.length === 0 && (
        <Text c="dimmed" mt="lg">
          {t('settings.labels.empty')}
        </Text>
      )}
      <Stack mt="lg" gap="xs">
        {list.data?.map((label) => (
          <Group key={label.id} justify="space-between">
            <Badge color={label.color} variant="filled" size="lg" autoContrast>
              {label.name}
            </Badge>
            <Group gap={4}>
              <EditButton
                label={t('settings.labels.edit', { name: label.name })}
                title={t('settings.labels.editTitle')}
                onOpen={() => {
                  update.reset();
                  setDraft({ name: label.name, color: label.color });
                }}
                onSave={() => update.mutateAsync(label.id)}
                saving={update.isPending}
                error={update.error}
              >
                <TextInput
                  label={t('settings.labels.name')}
                  value={draft.name}
                  onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
                  error={draftErrors.name}
                  required
                  data-autofocus
                />
                <ColorInput
                  label={t('settings.labels.color')}
                  value={draft.color}
                  onChange={(color) => setDraft({ ...draft, color })}
                  format="hex"
                  withEyeDropper={false}
                  error={draftErrors.color}
                />
              </EditButton>
              <ConfirmButton
                label={t('settings.labels.remove', { name: label.name })}
                title={t('settings.labels.removeTitle')}
                message={t('settings.labels.removeMessage', { name: label.name })}
                confirmLabel={t('settings.labels.removeConfirm')}
                onConfirm={() => remove.mutate(label.id)}
              />
            </Group>
          </Group>
        ))}
      </Stack>
    </>
  );
}
