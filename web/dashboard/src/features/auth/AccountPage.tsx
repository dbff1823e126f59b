import {
  Alert,
  Button,
  Container,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { agentChannel } from '../../api/socket';
import { t } from '../../i18n';

export default function AccountPage() {
  const me = useMe().data;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/auth/password', {
          body: { current_password: current, new_password: next },
        }),
      ),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  const logoutAll = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/logout-all')),
    onSuccess: () => {
      agentChannel.stop();
      queryClient.clear();
      void navigate('/login');
    },
  });
  const fields = change.error instanceof ApiError ? change.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  if (!me) return null;

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          {t('auth.account.title')}
        </Title>
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="md">
            {t('auth.account.profile')}
          </Title>
          <SimpleGrid cols={2} spacing="xs">
            <Text c="dimmed">{t('auth.field.name')}</Text>
            <Text>{me.user.name}</Text>
            <Text c="dimmed">{t('auth.field.email')}</Text>
            <Text>{me.user.email}</Text>
            <Text c="dimmed">{t('auth.account.role')}</Text>
            <Text tt="capitalize">{me.user.role}</Text>
            <Text c="dimmed">{t('auth.account.organization')}</Text>
            <Text>{me.organization.name}</Text>
          </SimpleGrid>
        </Paper>
        <Paper component="form" onSubmit={submit} noValidate withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="md">
            {t('auth.account.password')}
          </Title>
          <Stack>
            {change.isSuccess && (
              <Alert color="teal" role="status">
                {t('auth.account.passwordChanged')}
              </Alert>
            )}
            {change.error && Object.keys(fields).length === 0 && (
              <Alert color="red" role="alert">
                {change.error.message}
              </Alert>
            )}
            <PasswordInput
              label={t('auth.account.currentPassword')}
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              error={fields.current_password}
            />
            <PasswordInput
              label={t('auth.account.newPassword')}
              description={t('auth.field.passwordHint')}
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.currentTarget.value)}
              error={fields.new_password}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                {t('auth.account.savePassword')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="xs">
            {t('auth.account.sessions')}
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            {t('auth.account.sessionsHelp')}
          </Text>
          {logoutAll.error && (
            <Alert color="red" role="alert" mb="sm">
              {logoutAll.error.message}
            </Alert>
          )}
          <Button color="red" variant="light" onClick={() => logoutAll.mutate()}>
            {t('auth.account.logoutAll')}
          </Button>
        </Paper>
      </Stack>
    </Container>
  );
}
