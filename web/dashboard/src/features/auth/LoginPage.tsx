import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { AuthCard } from './AuthCard';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const enter = async () => {
    await queryClient.invalidateQueries({ queryKey: keys.me.all });
    const from = (location.state as { from?: string } | null)?.from;
    void navigate(from && from !== '/login' ? from : '/inbox', { replace: true });
  };
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/login', { body: { email, password } })),
    onSuccess: async (result) => {
      // With two-factor on, the password earns a challenge: the code comes next.
      if (result.two_factor_required && result.challenge) setChallenge(result.challenge);
      else await enter();
    },
  });
  const fields = login.error instanceof ApiError ? login.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  if (challenge)
    return (
      <AuthCard
        title={t('auth.login.twoFactorTitle')}
        subtitle={t('auth.login.twoFactorHelp')}
        footer={t('auth.login.noAccount')}
        footerLink={{ to: '/register', label: t('auth.login.register') }}
      >
        <SecondStep
          challenge={challenge}
          onDone={enter}
          onRestart={() => {
            setChallenge(null);
            setPassword('');
          }}
        />
      </AuthCard>
    );

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={t('auth.login.noAccount')}
      footerLink={{ to: '/register', label: t('auth.login.register') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <SsoError />
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
          <Anchor component={Link} to="/forgot-password" size="sm" ta="right">
            {t('auth.login.forgot')}
          </Anchor>
          <Button type="submit" loading={login.isPending} fullWidth mt="xs">
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
      <SingleSignOn />
    </AuthCard>
  );
}

const SSO_ERRORS = [
  'expired',
  'refused',
  'unverified',
  'no_email',
  'not_allowed',
  'unavailable',
  'not_configured',
  'failed',
] as const;

/** Why single sign-on sent the browser back here (`?sso_error=`), in words. */
function SsoError() {
  const location = useLocation();
  const given = new URLSearchParams(location.search).get('sso_error');
  if (!given) return null;
  const reason = SSO_ERRORS.find((known) => known === given) ?? 'failed';
  return (
    <Alert color="red" role="alert" title={t('auth.sso.error.title')}>
      {t(`auth.sso.error.${reason}`)}
    </Alert>
  );
}

/** Single sign-on (issue 28): the organization's identity provider, by organization id. */
function SingleSignOn() {
  const location = useLocation();
  const given = new URLSearchParams(location.search).get('organization') ?? '';
  const [organization, setOrganization] = useState(given);
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = organization.trim();
    if (!/^\d{1,18}$/.test(id)) {
      setError(t('auth.sso.organizationInvalid'));
      return;
    }
    // A full navigation: the provider's pages are not the dashboard's.
    window.location.assign(`/api/agent/auth/sso/start?organization=${encodeURIComponent(id)}`);
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-title">
      <Stack gap="xs" mt="lg">
        <Text id="sso-title" fw={600} size="sm">
          {t('auth.sso.title')}
        </Text>
        <TextInput
          label={t('auth.sso.organization')}
          description={t('auth.sso.organizationHelp')}
          inputMode="numeric"
          value={organization}
          onChange={(e) => {
            setOrganization(e.currentTarget.value);
            setError(undefined);
          }}
          error={error}
        />
        <Button type="submit" variant="default" fullWidth>
          {t('auth.sso.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** The code after the password (issue 28): from the app, or one of the recovery codes. */
function SecondStep({
  challenge,
  onDone,
  onRestart,
}: {
  challenge: string;
  onDone: () => Promise<void>;
  onRestart: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const verify = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/auth/two-factor', {
          body: recovery
            ? { challenge, recovery_code: code.trim() }
            : { challenge, code: code.trim() },
        }),
      ),
    onSuccess: onDone,
    onError: (error) => {
      // The challenge is over (spent or expired): back to the password.
      if (error instanceof ApiError && error.status === 401) onRestart();
    },
  });
  const fields = verify.error instanceof ApiError ? verify.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {verify.error && Object.keys(fields).length === 0 && (
          <Alert color="red" role="alert">
            {verify.error.message || t('auth.error.generic')}
          </Alert>
        )}
        {recovery && <Text size="sm">{t('auth.login.recoveryHelp')}</Text>}
        <TextInput
          label={recovery ? t('auth.login.recoveryCode') : t('auth.login.code')}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fields.code ?? fields.recovery_code}
        />
        <Button type="submit" loading={verify.isPending} fullWidth>
          {t('auth.login.verify')}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            verify.reset();
          }}
        >
          {recovery ? t('auth.login.useApp') : t('auth.login.useRecovery')}
        </Anchor>
      </Stack>
    </form>
  );
}
