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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { fieldErrorsOf, NoticeBar, QueryState, SectionHeader, useNotice } from '../kit/ui';
import { keys } from '../../../api/keys';
import { useOrganization } from './queries';

export default function OrganizationSettings() {
  const notice = useNotice();
  const organization = useOrganization();
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
  const [requireTwoFactor, setRequireTwoFactor] = useState(organization.require_two_factor);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/organization', {
          body: {
            name,
            auto_assignment: { enabled, capacity },
            require_two_factor: requireTwoFactor,
          },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.organization.all, result);
      // Requiring two-factor may now hold this member too (me says so).
      void queryClient.invalidateQueries({ queryKey: keys.me.all });
      notice.success(t('settings.saved'));
    },
    // A refused name says which of the two rules it broke, above the form and under the field.
    onError: (error) =>
      fieldErrorsOf(error).name ? notice.problem(nameError(name)) : notice.failure(error),
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
            error={errors.name && nameError(name)}
            required
            maxLength={100}
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
          <Title order={4} size="h5" mt="sm">
            {t('settings.organization.security')}
          </Title>
          <Switch
            label={t('settings.organization.requireTwoFactor')}
            description={t('settings.organization.requireTwoFactorHint')}
            checked={requireTwoFactor}
            onChange={(e) => setRequireTwoFactor(e.currentTarget.checked)}
          />
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

/** The catalog's sentence for a refused organization name: blank (spaces only) or too long. */
function nameError(name: string): string {
  return t(name.trim() ? 'settings.organization.nameTooLong' : 'settings.organization.nameEmpty');
}
