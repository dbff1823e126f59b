import {
  Button,
  Card,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { Schemas } from '../../../../../shared/api/client';
import { api, ApiError, unwrap } from '../../../api/client';
import { t } from '../../../i18n';
import { fieldErrorsOf, NoticeBar, QueryState, SectionHeader, useNotice } from '../kit/ui';
import { keys } from '../../../api/keys';
import { useSso } from './queries';

/** Settings → Single sign-on (issue 28): the organization's OpenID Connect provider, owners only. */
type Settings = Schemas['SsoSettingsDto'];

/** Settings → Single sign-on (issue 28): the organization's OpenID Connect provider, owners only. */
export default function SsoSettings({ organizationId }: { organizationId: number }) {
  const settings = useSso();
  const data = settings.data?.data;
  // Kept here: the form starts afresh from each saved version (its key).
  const notice = useNotice();
  return (
    <>
      <SectionHeader title={t('settings.sso.title')} description={t('settings.sso.description')} />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={settings.isPending} error={settings.error} />
      {data && (
        <SsoForm
          key={data.updated_at ?? 'new'}
          data={data}
          organizationId={organizationId}
          notice={notice}
        />
      )}
    </>
  );
}

function SsoForm({
  data,
  organizationId,
  notice,
}: {
  data: Settings;
  organizationId: number;
  notice: ReturnType<typeof useNotice>;
}) {
  const queryClient = useQueryClient();
  const [issuer, setIssuer] = useState(data.issuer ?? '');
  const [clientId, setClientId] = useState(data.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState<string[]>(data.allowed_domains);
  const [role, setRole] = useState<'admin' | 'agent'>(data.default_role);
  const [enforce, setEnforce] = useState(data.enforce);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/agent/sso', {
          body: {
            issuer: issuer.trim(),
            client_id: clientId.trim(),
            ...(secret ? { client_secret: secret } : {}),
            allowed_domains: domains,
            default_role: role,
            enforce,
          },
        }),
      ),
    onSuccess: (result) => {
      setSecret('');
      queryClient.setQueryData(keys.sso.all, result);
      notice.success(t('settings.sso.saved'));
    },
    // A field's error shows under the field; anything else above the form.
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors()).length > 0) notice.clear();
      else notice.failure(error);
    },
  });
  const fields = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const startUrl = `${window.location.origin}/login?organization=${organizationId}`;
  return (
    <>
      {
        <Card withBorder padding="lg" component="section" aria-label={t('settings.sso.title')}>
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput
                label={t('settings.sso.issuer')}
                description={t('settings.sso.issuerHelp')}
                value={issuer}
                onChange={(e) => setIssuer(e.currentTarget.value)}
                error={fields.issuer}
                required
              />
              <TextInput
                label={t('settings.sso.clientId')}
                value={clientId}
                onChange={(e) => setClientId(e.currentTarget.value)}
                error={fields.client_id}
                required
              />
              <PasswordInput
                label={t('settings.sso.clientSecret')}
                description={
                  data.configured ? t('settings.sso.secretKept') : t('settings.sso.secretNew')
                }
                placeholder={data.configured ? (data.client_secret ?? '') : ''}
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
                error={fields.client_secret}
                autoComplete="off"
              />
              <TagsInput
                label={t('settings.sso.domains')}
                description={t('settings.sso.domainsHelp')}
                value={domains}
                onChange={setDomains}
                error={fields.allowed_domains}
              />
              <Select
                label={t('settings.sso.role')}
                data={[
                  { value: 'agent', label: t('settings.sso.roleAgent') },
                  { value: 'admin', label: t('settings.sso.roleAdmin') },
                ]}
                value={role}
                onChange={(value) => setRole(value === 'admin' ? 'admin' : 'agent')}
                allowDeselect={false}
              />
              <Switch
                label={t('settings.sso.enforce')}
                description={t('settings.sso.enforceHelp')}
                checked={enforce}
                onChange={(e) => setEnforce(e.currentTarget.checked)}
              />
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('settings.sso.callback', {
                  url: `${window.location.origin}/api/agent/auth/sso/callback`,
                })}
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('settings.sso.loginLink', { url: startUrl })}
              </Text>
              <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
                {t('settings.saveChanges')}
              </Button>
            </Stack>
          </form>
        </Card>
      }
    </>
  );
}
