import {
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Schemas } from '../../../../shared/api/client';
import { t } from '../../i18n';
import { fieldErrorsOf, NoticeBar, QueryState, SectionHeader, useNotice } from './ui';

export default function OrganizationSettings() {
  const notice = useNotice();
  const organization = useQuery({
    queryKey: ['organization'],
    queryFn: () => unwrap(api.GET('/api/agent/organization')),
  });
  return (
    <>
      <SectionHeader
        title={t('settings.organization.title')}
        description={t('settings.organization.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={organization.isPending} error={organization.error} />
      {organization.data && (
        <OrganizationForm
          key={organization.data.data.id}
          organization={organization.data.data}
          notice={notice}
        />
      )}
    </>
  );
}

function OrganizationForm({
  organization,
  notice,
}: {
  organization: Schemas['OrganizationSettingsDto'];
  notice: ReturnType<typeof useNotice>;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [enabled, setEnabled] = useState(organization.auto_assignment.enabled);
  const [capacity, setCapacity] = useState<number>(organization.auto_assignment.capacity);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/organization', {
          body: { name, auto_assignment: { enabled, capacity } },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(['organization'], result);
      notice.success(t('settings.saved'));
    },
    onError: notice.failure,
  });
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Stack>
      <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="org-form">
        <Title order={3} size="h4" id="org-form" mb="sm">
          {t('settings.organization.details')}
        </Title>
        <Stack>
          <TextInput
            label={t('settings.organization.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            maw={420}
          />
          <Text size="sm" c="dimmed">
            {t('settings.organization.plan', { plan: organization.plan })}
          </Text>
          <Title order={4} size="h5" mt="sm">
            {t('settings.organization.assignment')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.organization.assignmentHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Switch
              label={t('settings.organization.autoAssign')}
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
              mt="md"
            />
            <NumberInput
              label={t('settings.organization.capacity')}
              description={t('settings.organization.capacityHint')}
              min={1}
              max={100}
              value={capacity}
              onChange={(value) => setCapacity(Number(value) || 0)}
              error={errors['auto_assignment.capacity']}
              disabled={!enabled}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('settings.organization.save')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
