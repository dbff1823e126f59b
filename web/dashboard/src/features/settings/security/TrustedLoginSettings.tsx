import { Alert, Button, Card, Code, Group, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n';
import {
  ConfirmButton,
  CopyField,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
  Tag,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useTrustedLogin } from './queries';

export default function TrustedLoginSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [secret, setSecret] = useState<string | null>(null);
  const status = useTrustedLogin();
  const generate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/visitor-trusted-login/secret')),
    onSuccess: (result) => {
      setSecret(result.plain_text_secret);
      notice.clear();
      queryClient.setQueryData(keys.trustedLogin.all, result);
    },
    onError: notice.failure,
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      unwrap(api.PATCH('/api/agent/visitor-trusted-login', { body: { enabled } })),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.trustedLogin.all, result);
      notice.success(
        result.trusted_login.enabled
          ? t('settings.trusted.switchedOn')
          : t('settings.trusted.switchedOff'),
      );
    },
    onError: notice.failure,
  });
  const state = status.data?.trusted_login;
  return (
    <>
      <SectionHeader
        title={t('settings.trusted.title')}
        description={t('settings.trusted.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={status.isPending} error={status.error} />
      {state && (
        <Stack gap="lg">
          {secret && (
            <Alert color="teal" title={t('settings.trusted.secretTitle')}>
              <Stack gap="xs">
                <Text size="sm">{t('settings.trusted.secretOnce')}</Text>
                <CopyField label={t('settings.trusted.secret')} value={secret} />
              </Stack>
            </Alert>
          )}
          <Card withBorder padding="lg" component="section" aria-labelledby="trusted-state">
            <Group justify="space-between" mb="md">
              <Title order={3} size="h4" id="trusted-state">
                {t('settings.trusted.state')}
              </Title>
              <Tag color={state.enabled ? 'teal' : 'gray'}>
                {state.enabled ? t('settings.trusted.on') : t('settings.trusted.off')}
              </Tag>
            </Group>
            <Stack>
              <Text size="sm">
                {state.secret_configured
                  ? t('settings.trusted.secretSet', { prefix: state.secret_prefix ?? '' })
                  : t('settings.trusted.noSecret')}
              </Text>
              <Text size="sm">
                {t('settings.trusted.endpoint')} <Code>{state.endpoint}</Code>
              </Text>
              <Text size="sm">
                {t('settings.trusted.header')} <Code>{state.header}</Code>
              </Text>
              <Group justify="space-between">
                <Switch
                  label={t('settings.trusted.enabled')}
                  checked={state.enabled}
                  disabled={toggle.isPending}
                  onChange={(e) => toggle.mutate(e.currentTarget.checked)}
                />
                {state.secret_configured ? (
                  // The old secret stops working at once: asked first.
                  <ConfirmButton
                    label={t('settings.trusted.regenerate')}
                    title={t('settings.trusted.regenerateTitle')}
                    message={t('settings.trusted.regenerateMessage')}
                    confirmLabel={t('settings.trusted.regenerate')}
                    onConfirm={() => generate.mutate()}
                    loading={generate.isPending}
                  />
                ) : (
                  <Button onClick={() => generate.mutate()} loading={generate.isPending}>
                    {t('settings.trusted.generate')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Card>
          <RequestExample endpoint={state.endpoint} header={state.header} />
        </Stack>
      )}
    </>
  );
}

/**
 * What the site's backend sends, in curl and in Node: the endpoint and header as configured, the
 * secret and the visitor's values as placeholders (the secret is never written into a page).
 */
export function requestExamples(endpoint: string, header: string) {
  const body = {
    widget_key: 'WIDGET_KEY',
    visitor_uid: 'VISITOR_UID',
    email: 'customer@example.com',
  };
  const curl = [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "${header}: $TRUSTED_LOGIN_SECRET" \\`,
    `  -d '${JSON.stringify(body)}'`,
  ].join('\n');
  const node = [
    `const response = await fetch('${endpoint}', {`,
    `  method: 'POST',`,
    `  headers: {`,
    `    'Content-Type': 'application/json',`,
    `    '${header}': process.env.TRUSTED_LOGIN_SECRET,`,
    `  },`,
    `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`,
    `});`,
    `if (!response.ok) throw new Error(\`trusted login: \${response.status}\`);`,
  ].join('\n');
  return { curl, node };
}

function RequestExample({ endpoint, header }: { endpoint: string; header: string }) {
  const { curl, node } = requestExamples(endpoint, header);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="trusted-example">
      <Title order={3} size="h4" id="trusted-example" mb="xs">
        {t('settings.trusted.example')}
      </Title>
      <Text size="sm" mb="sm">
        {t('settings.trusted.exampleHint')}
      </Text>
      <Tabs defaultValue="curl">
        <Tabs.List>
          <Tabs.Tab value="curl">curl</Tabs.Tab>
          <Tabs.Tab value="node">Node.js</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="curl" pt="sm">
          <Code block tabIndex={0} style={{ overflowX: 'auto' }}>
            {curl}
          </Code>
        </Tabs.Panel>
        <Tabs.Panel value="node" pt="sm">
          <Code block tabIndex={0} style={{ overflowX: 'auto' }}>
            {node}
          </Code>
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}
