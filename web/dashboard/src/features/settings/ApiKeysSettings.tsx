import {
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
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
import { api, unwrap } from '../../api/client';
import { allPages } from '../../api/queries';
import type { Schemas } from '../../../../shared/api/client';
import { t } from '../../i18n';
import {
  ConfirmButton,
  CopyField,
  fieldErrorsOf,
  formatDateTime,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
  Tag,
} from './ui';

type Ability = Schemas['CreateApiKeyDto']['abilities'][number];
const ABILITIES: Ability[] = [
  'conversations:read',
  'conversations:write',
  'visitors:read',
  'tickets:read',
  'tickets:write',
  'agents:read',
  'sites:read',
];

export default function ApiKeysSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/api-keys', { params: { query } }))),
  });
  const revoke = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/api-keys/{key}', { params: { path: { key: id } } })),
    onSuccess: () => {
      notice.success(t('settings.apiKeys.revoked'));
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
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
          void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
        }}
      />
      <QueryState loading={keys.isPending} error={keys.error} />
      {keys.data && keys.data.length === 0 && (
        <Text c="dimmed" mt="lg">
          {t('settings.apiKeys.empty')}
        </Text>
      )}
      {keys.data && keys.data.length > 0 && (
        <Table.ScrollContainer minWidth={720} mt="lg">
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.apiKeys.name')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.prefix')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.abilities')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.lastUsed')}</Table.Th>
                <Table.Th>{t('settings.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td fw={500}>{key.name}</Table.Td>
                  <Table.Td>
                    <Code>{key.key_prefix}…</Code>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {key.abilities.map((ability) => (
                        <Tag key={ability} size="sm">
                          {ability}
                        </Tag>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {key.last_used_at
                      ? formatDateTime(key.last_used_at)
                      : t('settings.apiKeys.never')}
                  </Table.Td>
                  <Table.Td>
                    <ConfirmButton
                      label={t('settings.apiKeys.revoke', { name: key.name })}
                      title={t('settings.apiKeys.revokeTitle')}
                      message={t('settings.apiKeys.revokeMessage', { name: key.name })}
                      confirmLabel={t('settings.apiKeys.revokeConfirm')}
                      onConfirm={() => revoke.mutate(key.id)}
                    />
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="new-key">
      <Title order={3} size="h4" id="new-key" mb="sm">
        {t('settings.apiKeys.create')}
      </Title>
      <Stack>
        {create.error && !Object.keys(errors).length && (
          <Text c="red" role="alert">
            {create.error.message}
          </Text>
        )}
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
            errors.abilities ??
            Object.entries(errors).find(([k]) => k.startsWith('abilities.'))?.[1]
          }
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mt="xs">
            {ABILITIES.map((ability) => (
              <Checkbox key={ability} value={ability} label={ability} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('settings.apiKeys.createButton')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
