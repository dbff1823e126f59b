import {
  Alert,
  Avatar,
  Button,
  FileButton,
  Container,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { agentChannel } from '../../api/socket';
import { t } from '../../i18n';
import { TwoFactorCard } from './TwoFactorCard';
import { keys } from '../../api/keys';

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
        {me.two_factor_setup_required && <TwoFactorCard required />}
        <ProfileCard />
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
              error={
                fields.current_password &&
                t(current ? 'auth.account.error.current' : 'auth.account.error.currentEmpty')
              }
            />
            <PasswordInput
              label={t('auth.account.newPassword')}
              description={t('auth.field.passwordHint')}
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.currentTarget.value)}
              error={fields.new_password && t('auth.account.error.new')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                {t('auth.account.savePassword')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        {!me.two_factor_setup_required && <TwoFactorCard required={false} />}
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

/** Name and avatar (issue 28): what the team and, for the avatar, visitors see. */
function ProfileCard() {
  const me = useMe().data;
  const queryClient = useQueryClient();
  const [name, setName] = useState(me?.user.name ?? '');
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.me.all });
  const rename = useMutation({
    mutationFn: () => unwrap(api.PATCH('/api/agent/me', { body: { name } })),
    onSuccess: refresh,
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.POST('/api/agent/me/avatar', {
          // The generated type calls the binary part a string; the body is sent as a form.
          body: { file: file as unknown as string },
          bodySerializer: (value) => {
            const form = new FormData();
            form.append('file', (value as unknown as { file: File }).file);
            return form;
          },
        }),
      ),
    onSuccess: refresh,
  });
  const removeAvatar = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/agent/me/avatar')),
    onSuccess: refresh,
  });
  if (!me) return null;
  const nameErrors = rename.error instanceof ApiError ? rename.error.fieldErrors() : {};
  const avatarError = upload.error ?? removeAvatar.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate();
  };
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="profile-title">
      <Title order={2} size="h4" mb="md" id="profile-title">
        {t('auth.account.profile')}
      </Title>
      <Stack>
        <Group gap="md" wrap="wrap">
          <Avatar
            src={me.user.avatar_url}
            size={64}
            radius="xl"
            color="indigo"
            alt={t('auth.profile.avatarAlt', { name: me.user.name })}
          >
            {me.user.name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={6}>
            <Group gap="xs">
              <FileButton
                onChange={(file) => file && upload.mutate(file)}
                accept="image/png,image/jpeg,image/gif,image/webp"
              >
                {(props) => (
                  <Button {...props} variant="light" size="xs" loading={upload.isPending}>
                    {t('auth.profile.upload')}
                  </Button>
                )}
              </FileButton>
              {me.user.avatar_url && (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  loading={removeAvatar.isPending}
                  onClick={() => removeAvatar.mutate()}
                >
                  {t('auth.profile.removeAvatar')}
                </Button>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('auth.profile.avatarHint')}
            </Text>
          </Stack>
        </Group>
        {avatarError && (
          <Alert color="red" role="alert">
            {avatarError.message}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-label={t('auth.profile.nameForm')}>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('auth.field.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={nameErrors.name && t('auth.profile.error.name')}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button type="submit" loading={rename.isPending}>
              {t('auth.profile.saveName')}
            </Button>
          </Group>
          {rename.isSuccess && (
            <Text size="sm" c="teal.9" fw={500} mt={6} role="status">
              {t('auth.profile.saved')}
            </Text>
          )}
        </form>
        <SimpleGrid cols={2} spacing="xs">
          <Text c="dimmed">{t('auth.field.email')}</Text>
          <Text style={{ overflowWrap: 'anywhere' }}>{me.user.email}</Text>
          <Text c="dimmed">{t('auth.account.role')}</Text>
          <Text tt="capitalize">{me.user.role}</Text>
          <Text c="dimmed">{t('auth.account.organization')}</Text>
          <Text>{me.organization.name}</Text>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
