import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n';

/** The error of a form: a field's own message goes under it, anything else above the form. */
function FormError({ error, fields }: { error: Error | null; fields: Record<string, string> }) {
  if (!error) return null;
  const listed = Object.keys(fields).filter((name) => name !== 'token');
  if (listed.length > 0) return null;
  return (
    <Alert color="red" role="alert">
      {fields.token ?? (error.message || t('auth.error.generic'))}
    </Alert>
  );
}

function fieldsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fieldErrors() : {};
}

function useToken(): string {
  const [params] = useSearchParams();
  return params.get('token') ?? '';
}

function MissingToken() {
  return (
    <Alert color="red" role="alert">
      {t('auth.link.missing')}
    </Alert>
  );
}

export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/agent/auth/password-reset', { body: { email: email.trim() } })),
  });
  const fields = fieldsOf(request.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate();
  };
  if (request.isSuccess)
    return (
      <Alert color="teal" role="status">
        {t('auth.forgot.sent')}
      </Alert>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError error={request.error} fields={fields} />
        <TextInput
          label={t('auth.field.email')}
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={fields.email}
        />
        <Button type="submit" loading={request.isPending} fullWidth>
          {t('auth.forgot.submit')}
        </Button>
      </Stack>
    </form>
  );
}

export function ResetPasswordForm() {
  const token = useToken();
  const [password, setPassword] = useState('');
  const reset = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/agent/auth/password-reset/confirm', { body: { token, password } })),
  });
  const fields = fieldsOf(reset.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate();
  };
  if (!token) return <MissingToken />;
  if (reset.isSuccess)
    return (
      <Stack>
        <Alert color="teal" role="status">
          {t('auth.reset.done')}
        </Alert>
        <Button component={Link} to="/login">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError error={reset.error} fields={fields} />
        {fields.token && (
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('auth.reset.again')}
          </Anchor>
        )}
        <PasswordInput
          label={t('auth.reset.password')}
          description={t('auth.field.passwordHint')}
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fields.password}
        />
        <Button type="submit" loading={reset.isPending} fullWidth>
          {t('auth.reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}

export function AcceptInviteForm() {
  const token = useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/auth/accept-invite', {
          body: { token, password, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    onSuccess: async () => {
      queryClient.clear();
      await queryClient.invalidateQueries({ queryKey: keys.me.all });
      void navigate('/inbox', { replace: true });
    },
  });
  const fields = fieldsOf(accept.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  if (!token) return <MissingToken />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError error={accept.error} fields={fields} />
        <TextInput
          label={t('auth.invite.name')}
          description={t('auth.invite.nameHint')}
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fields.name}
        />
        <PasswordInput
          label={t('auth.invite.password')}
          description={t('auth.invite.passwordHint')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fields.password}
        />
        <Button type="submit" loading={accept.isPending} fullWidth>
          {t('auth.invite.submit')}
        </Button>
      </Stack>
    </form>
  );
}

export function VerifyEmailForm() {
  const token = useToken();
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/verify-email', { body: { token } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.me.all }),
  });
  const fields = fieldsOf(verify.error);
  if (!token) return <MissingToken />;
  if (verify.isSuccess)
    return (
      <Stack>
        <Alert color="teal" role="status">
          {t('auth.verify.done')}
        </Alert>
        <Button component={Link} to="/inbox">
          {t('auth.verify.continue')}
        </Button>
      </Stack>
    );
  return (
    <Stack>
      <FormError error={verify.error} fields={fields} />
      <Text size="sm">{t('auth.verify.subtitle')}</Text>
      <Button onClick={() => verify.mutate()} loading={verify.isPending} fullWidth>
        {t('auth.verify.submit')}
      </Button>
    </Stack>
  );
}
