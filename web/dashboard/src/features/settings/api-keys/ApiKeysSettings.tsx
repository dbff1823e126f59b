import { Alert, Checkbox, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import {
  ConfirmButton,
  CopyField,
  fieldErrorsOf,
  formatDateTime,
  NoticeBar,
  SectionHeader,
  useNotice,
  Tag,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useApiKeys } from './queries';

type Ability = Schemas['CreateApiKeyDto']['abilities'][number];
const ABILITIES: Ability[] = [
  'conversations:read',
  'conversations:write',
  'visitors:read',
  'tickets:read',
  'tickets:write',
  'agents:read',
  'sites:read',
  'kb:read',
  'kb:write',
];

export default function ApiKeysSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const list = useApiKeys();
  const revoke = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/api-keys/{key}', { params: { path: { key: id } } })),
    onSuccess: () => {
      notice.success(t('settings.apiKeys.revoked'));
      void queryClient.invalidateQueries({ queryKey: keys.apiKeys.all });
    },
    onError: notice.failure,
  });
  return (
    <>
      <SectionHeader
        title={t('settings.apiKeys.title')}
        description={t('settings.apiKeys.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      {created && (
        <Alert
          color="teal"
          title={t('settings.apiKeys.createdTitle', { name: created.name })}
          mb="lg"
          withCloseButton
          closeButtonLabel={t('settings.notice.dismiss')}
          onClose={() => setCreated(null)}
        >
          <Stack gap="xs">
            <Text size="sm">{t('settings.apiKeys.shownOnce')}</Text>
            <CopyField label={t('settings.apiKeys.keyLabel')} value={created.key} />
          </Stack>
        </Alert>
      )}
      <CreateKeyForm
        onCreated={(name, key) => {
          setCreated({ name, key });
          notice.clear();
          void queryClient.invalidateQueries({ queryKey: keys.apiKeys.all });
        }}
      />
      <ListTable
        items={list.data}
        loading={list.isPending}
        error={list.error}
        empty={t('settings.apiKeys.empty')}
        rowKey={(key) => key.id}
        columns={[
          {
            key: 'name',
            header: t('settings.apiKeys.name'),
            cell: (key) => key.name,
            props: { fw: 500 },
          },
          {
            key: 'prefix',
            header: t('settings.apiKeys.prefix'),
            cell: (key) => <Code>{key.key_prefix}…</Code>,
          },
          {
            key: 'abilities',
            header: t('settings.apiKeys.abilities'),
            cell: (key) => (
              <Group gap={4}>
                {key.abilities.map((ability) => (
                  <Tag key={ability} size="sm">
                    {ability}
                  </Tag>
                ))}
              </Group>
            ),
          },
          {
            key: 'last-used',
            header: t('settings.apiKeys.lastUsed'),
            cell: (key) =>
              key.last_used_at ? formatDateTime(key.last_used_at) : t('settings.apiKeys.never'),
          },
          {
            key: 'actions',
            header: t('settings.actions'),
            cell: (key) => (
              <ConfirmButton
                label={t('settings.apiKeys.revoke', { name: key.name })}
                title={t('settings.apiKeys.revokeTitle')}
                message={t('settings.apiKeys.revokeMessage', { name: key.name })}
                confirmLabel={t('settings.apiKeys.revokeConfirm')}
                onConfirm={() => revoke.mutate(key.id)}
              />
            ),
          },
        ]}
      />
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (name: string, key: string) => void }) {
  const [name, setName] = useState('');
  const [abilities, setAbilities] = useState<Ability[]>(['conversations:read']);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/api-keys', { body: { name, abilities } })),
    onSuccess: (result) => {
      setName('');
      onCreated(result.data.name, result.plain_text_key);
    },
  });
  const errors = fieldErrorsOf(create.error);
  return (
    <FormCard
      id="new-key"
      title={t('settings.apiKeys.create')}
      submitLabel={t('settings.apiKeys.createButton')}
      submitting={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate()}
    >
      <TextInput
        label={t('settings.apiKeys.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        required
        maw={420}
      />
      <Checkbox.Group
        label={t('settings.apiKeys.abilities')}
        value={abilities}
        onChange={(value) => setAbilities(value)}
        error={
          errors.abilities ?? Object.entries(errors).find(([k]) => k.startsWith('abilities.'))?.[1]
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mt="xs">
          {ABILITIES.map((ability) => (
            <Checkbox key={ability} value={ability} label={ability} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </FormCard>
  );
}
