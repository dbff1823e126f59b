import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { keys } from '../../api/queries';
import { t } from '../../i18n';
import { AuthCard } from './AuthCard';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/login', { body: { email, password } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.me });
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/inbox', { replace: true });
    },
  });
  const fields = login.error instanceof ApiError ? login.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={t('auth.login.noAccount')}
      footerLink={{ to: '/register', label: t('auth.login.register') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {login.error && !fields.email && !fields.password && (
            <Alert color="red" role="alert">
              {login.error.message || t('auth.error.generic')}
            </Alert>
          )}
          <TextInput
            label={t('auth.field.email')}
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fields.email}
          />
          <PasswordInput
            label={t('auth.field.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fields.password}
          />
          <Button type="submit" loading={login.isPending} fullWidth mt="xs">
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
