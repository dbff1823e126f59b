import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';
import { AuthCard } from './AuthCard';

export default function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ organization_name: '', name: '', email: '', password: '' });
  const register = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/register', { body: form })),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      void navigate('/inbox?welcome=1', { replace: true });
    },
  });
  const fields = register.error instanceof ApiError ? register.error.fieldErrors() : {};
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setForm((old) => ({ ...old, [name]: value }));
    },
    error: fields[name],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate();
  };

  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={t('auth.register.haveAccount')}
      footerLink={{ to: '/login', label: t('auth.register.login') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {register.error && Object.keys(fields).length === 0 && (
            <Alert color="red" role="alert">
              {register.error.message || t('auth.error.generic')}
            </Alert>
          )}
          <TextInput
            label={t('auth.field.organization')}
            autoComplete="organization"
            autoFocus
            {...field('organization_name')}
          />
          <TextInput label={t('auth.field.name')} autoComplete="name" {...field('name')} />
          <TextInput
            label={t('auth.field.email')}
            type="email"
            autoComplete="email"
            {...field('email')}
          />
          <PasswordInput
            label={t('auth.field.password')}
            description={t('auth.field.passwordHint')}
            autoComplete="new-password"
            {...field('password')}
          />
          <Button type="submit" loading={register.isPending} fullWidth mt="xs">
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
