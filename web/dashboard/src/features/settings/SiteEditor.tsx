import {
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  TextInput,
  Title,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/queries';
import type { Schemas } from '../../../../shared/api/client';
import { t } from '../../i18n';
import { FormCard } from './FormCard';
import { type Appearance, AppearanceForm } from './AppearanceForm';
import { PreChatEditor, type PreChatForm } from './PreChatEditor';
import { CopyField, fieldErrorsOf, NoticeBar, QueryState, SectionHeader, useNotice } from './ui';

type Site = Schemas['SiteDto'];
/** The update schema marks `is_active` and `timezone` as defaulted: a patch may leave them out. */
type SitePatch = Partial<Schemas['UpdateSiteDto']>;

/** The widget settings a site stores (the API documents them as an object). */
export interface WidgetSettings {
  appearance?: Appearance;
  pre_chat_form: PreChatForm;
  visitor_account_login: { enabled: boolean; menu_label: string; logout_label: string };
}

export function installSnippet(widgetKey: string): string {
  return `<script async src="${window.location.origin}/widget.js" data-widget-key="${widgetKey}"></script>`;
}

export default function SiteEditor() {
  const siteId = Number(useParams().siteId);
  const site = useQuery({
    queryKey: ['sites', siteId],
    queryFn: () =>
      unwrap(api.GET('/api/agent/sites/{site}', { params: { path: { site: siteId } } })),
    enabled: Number.isInteger(siteId),
  });
  const notice = useNotice();
  return (
    <>
      <Anchor component={Link} to="/settings/sites" size="sm">
        {t('settings.sites.back')}
      </Anchor>
      <SectionHeader
        title={site.data ? site.data.data.name : t('settings.sites.title')}
        description={t('settings.sites.editorDescription')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={site.isPending} error={site.error} />
      {site.data && <SiteSections key={site.data.data.id} site={site.data.data} notice={notice} />}
    </>
  );
}

function SiteSections({ site, notice }: { site: Site; notice: ReturnType<typeof useNotice> }) {
  const queryClient = useQueryClient();
  const settings = site.widget_settings as unknown as WidgetSettings;
  const save = useMutation({
    mutationFn: (body: { section: string; patch: SitePatch }) =>
      unwrap(
        api.PATCH('/api/agent/sites/{site}', {
          params: { path: { site: site.id } },
          // The update schema marks these as defaulted; send the current ones back unchanged.
          body: { is_active: site.is_active, timezone: site.timezone, ...body.patch },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(['sites', site.id], result);
      void queryClient.invalidateQueries({ queryKey: keys.sites, exact: true });
      void queryClient.invalidateQueries({ queryKey: keys.siteNames });
      notice.success(t('settings.saved'));
    },
    onError: notice.failure,
  });
  const errors = fieldErrorsOf(save.error);
  const section = save.variables?.section;
  const sectionErrors = (name: string) => (section === name ? errors : {});
  return (
    <Stack gap="xl">
      <DetailsForm
        site={site}
        errors={sectionErrors('details')}
        saving={save.isPending && section === 'details'}
        onSave={(patch) => save.mutate({ section: 'details', patch })}
      />
      <InstallCard site={site} />
      {settings.appearance && (
        <AppearanceForm
          value={settings.appearance}
          errors={sectionErrors('appearance')}
          saving={save.isPending && section === 'appearance'}
          onSave={(appearance) =>
            save.mutate({ section: 'appearance', patch: { widget_settings: { appearance } } })
          }
        />
      )}
      <PreChatEditor
        form={settings.pre_chat_form}
        errors={sectionErrors('prechat')}
        saving={save.isPending && section === 'prechat'}
        onSave={(form) =>
          save.mutate({
            section: 'prechat',
            patch: { widget_settings: { pre_chat_form: form as Schemas['PreChatFormDto'] } },
          })
        }
      />
      <AccountLoginForm
        value={settings.visitor_account_login}
        errors={sectionErrors('account')}
        saving={save.isPending && section === 'account'}
        onSave={(visitor_account_login) =>
          save.mutate({ section: 'account', patch: { widget_settings: { visitor_account_login } } })
        }
      />
    </Stack>
  );
}

function DetailsForm({
  site,
  errors,
  saving,
  onSave,
}: {
  site: Site;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (patch: SitePatch) => void;
}) {
  const [name, setName] = useState(site.name);
  const [domain, setDomain] = useState(site.domain ?? '');
  const [allowed, setAllowed] = useState<string[]>(site.allowed_domains);
  const [timezone, setTimezone] = useState(site.timezone);
  const [active, setActive] = useState(site.is_active);
  const zones = useMemo(() => {
    const all = Intl.supportedValuesOf('timeZone');
    return all.includes(timezone) ? all : [timezone, ...all];
  }, [timezone]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The domain is optional: an empty field clears it (the API takes null, not an empty name).
    onSave({
      name,
      domain: domain.trim() || null,
      allowed_domains: allowed,
      timezone,
      is_active: active,
    });
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="site-details">
      <Title order={3} size="h4" id="site-details" mb="sm">
        {t('settings.sites.details')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('settings.sites.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          required
        />
        <TextInput
          label={t('settings.sites.domain')}
          value={domain}
          onChange={(e) => setDomain(e.currentTarget.value)}
          error={errors.domain}
        />
        <TagsInput
          label={t('settings.sites.allowedDomains')}
          description={t('settings.sites.allowedDomainsHint')}
          value={allowed}
          onChange={setAllowed}
          error={errors.allowed_domains ?? firstNested(errors, 'allowed_domains')}
          clearable
        />
        <Select
          label={t('settings.sites.timezone')}
          data={zones}
          value={timezone}
          onChange={(value) => value && setTimezone(value)}
          searchable
          allowDeselect={false}
          error={errors.timezone}
        />
      </SimpleGrid>
      <Group justify="space-between" mt="md">
        <Switch
          label={t('settings.sites.activeSwitch')}
          checked={active}
          onChange={(e) => setActive(e.currentTarget.checked)}
        />
        <Button type="submit" loading={saving}>
          {t('settings.sites.saveDetails')}
        </Button>
      </Group>
    </Card>
  );
}

/** The first message of any `field.<n>...` error (a list's items are named by index). */
export function firstNested(errors: Record<string, string>, field: string): string | undefined {
  const key = Object.keys(errors).find((name) => name.startsWith(`${field}.`));
  return key ? errors[key] : undefined;
}

function InstallCard({ site }: { site: Site }) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="site-install">
      <Title order={3} size="h4" id="site-install" mb="sm">
        {t('settings.sites.install')}
      </Title>
      <Stack>
        <CopyField label={t('settings.sites.snippet')} value={installSnippet(site.widget_key)} />
        <CopyField label={t('settings.sites.widgetKey')} value={site.widget_key} />
        <Anchor
          href={`/demo?widget_key=${encodeURIComponent(site.widget_key)}`}
          target="_blank"
          rel="noopener"
        >
          <Group gap={4} component="span">
            {t('settings.sites.demo')}
            <IconExternalLink size={16} aria-hidden />
          </Group>
        </Anchor>
      </Stack>
    </Card>
  );
}

function AccountLoginForm({
  value,
  errors,
  saving,
  onSave,
}: {
  value: WidgetSettings['visitor_account_login'];
  errors: Record<string, string>;
  saving: boolean;
  onSave: (value: WidgetSettings['visitor_account_login']) => void;
}) {
  const [form, setForm] = useState(value);
  const prefix = 'widget_settings.visitor_account_login';
  return (
    <FormCard
      id="site-account-login"
      title={t('settings.sites.accountLogin')}
      submitLabel={t('settings.sites.saveAccountLogin')}
      submitting={saving}
      onSubmit={() => onSave(form)}
    >
      <Switch
        label={t('settings.sites.accountLoginEnabled')}
        checked={form.enabled}
        onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('settings.sites.menuLabel')}
          value={form.menu_label}
          onChange={(e) => setForm({ ...form, menu_label: e.currentTarget.value })}
          error={errors[`${prefix}.menu_label`]}
        />
        <TextInput
          label={t('settings.sites.logoutLabel')}
          value={form.logout_label}
          onChange={(e) => setForm({ ...form, logout_label: e.currentTarget.value })}
          error={errors[`${prefix}.logout_label`]}
        />
      </SimpleGrid>
    </FormCard>
  );
}
