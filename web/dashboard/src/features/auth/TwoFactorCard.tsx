import {
  Alert,
  Button,
  Code,
  Group,
  Image,
  List,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';
import { keys } from '../../api/keys';

/** Two-factor authentication on the profile page (issue 28): set up, recovery codes, turn off. */
export function TwoFactorCard({ required }: { required: boolean }) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: keys.me.twoFactor,
    queryFn: () => unwrap(api.GET('/api/agent/me/two-factor')),
  });
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/me/two-factor')),
    onSuccess: (result) => setSetup(result.data),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keys.me.twoFactor });
    void queryClient.invalidateQueries({ queryKey: keys.me.all, exact: true });
  };
  const enabled = status.data?.data.enabled === true;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="two-factor-title">
      <Title order={2} size="h4" mb="xs" id="two-factor-title">
        {t('auth.twoFactor.title')}
      </Title>
      <Stack>
        {required && !enabled && (
          <Alert color="orange" role="alert">
            {t('auth.twoFactor.required')}
          </Alert>
        )}
        {codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : enabled ? (
          <>
            <Text size="sm">
              {t('auth.twoFactor.on', { left: status.data?.data.recovery_codes_left ?? 0 })}
            </Text>
            <DisableForm onDone={refresh} />
          </>
        ) : status.data?.data.managed_by_provider ? (
          <Text size="sm">{t('auth.twoFactor.managedByProvider')}</Text>
        ) : setup ? (
          <ConfirmForm
            setup={setup}
            onConfirmed={(recovery) => {
              setSetup(null);
              setCodes(recovery);
              refresh();
            }}
          />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {t('auth.twoFactor.off')}
            </Text>
            {start.error && (
              <Alert color="red" role="alert">
                {start.error.message}
              </Alert>
            )}
            <Group>
              <Button onClick={() => start.mutate()} loading={start.isPending}>
                {t('auth.twoFactor.start')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function ConfirmForm({
  setup,
  onConfirmed,
}: {
  setup: { secret: string; otpauth_uri: string };
  onConfirmed: (codes: string[]) => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(setup.otpauth_uri, { margin: 1, width: 200 }).then((url) => {
      if (live) setQr(url);
    });
    return () => {
      live = false;
    };
  }, [setup.otpauth_uri]);
  const confirm = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/agent/me/two-factor/confirm', { body: { code: code.trim() } })),
    onSuccess: (result) => onConfirmed(result.data.recovery_codes),
  });
  const fields = confirm.error instanceof ApiError ? confirm.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('auth.twoFactor.confirmForm')}>
      <Stack>
        <Text size="sm">{t('auth.twoFactor.scan')}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {qr ? (
            <Image src={qr} alt={t('auth.twoFactor.qr')} w={200} h={200} />
          ) : (
            <div style={{ width: 200, height: 200 }} />
          )}
          <Stack gap={4}>
            <Text size="sm" fw={500} id="two-factor-secret-label">
              {t('auth.twoFactor.secret')}
            </Text>
            <Code
              block
              aria-labelledby="two-factor-secret-label"
              style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
            >
              {setup.secret}
            </Code>
          </Stack>
        </SimpleGrid>
        {confirm.error && Object.keys(fields).length === 0 && (
          <Alert color="red" role="alert">
            {confirm.error.message}
          </Alert>
        )}
        <TextInput
          label={t('auth.twoFactor.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fields.code}
          maw={200}
        />
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            {t('auth.twoFactor.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="teal" role="status">
        {t('auth.twoFactor.enabled')}
      </Alert>
      <Text size="sm">{t('auth.twoFactor.codesHelp')}</Text>
      <List aria-label={t('auth.twoFactor.codes')} spacing={2} listStyleType="none">
        {codes.map((code) => (
          <List.Item key={code}>
            <Code>{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <Button variant="light" onClick={onDone}>
          {t('auth.twoFactor.saved')}
        </Button>
      </Group>
    </Stack>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/agent/me/two-factor', { body: { password, code: code.trim() } })),
    onSuccess: () => {
      setPassword('');
      setCode('');
      onDone();
    },
  });
  const fields = disable.error instanceof ApiError ? disable.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('auth.twoFactor.disableForm')}>
      <Stack>
        {disable.error && Object.keys(fields).length === 0 && (
          <Alert color="red" role="alert">
            {disable.error.message}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t('auth.field.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fields.password}
          />
          <TextInput
            label={t('auth.twoFactor.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={fields.code}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" color="red" variant="light" loading={disable.isPending}>
            {t('auth.twoFactor.disable')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
