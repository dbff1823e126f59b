import {
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { AppearanceForm } from './AppearanceForm';
import { AvailabilityForm } from './AvailabilityForm';
import { PreChatEditor } from './PreChatEditor';
import {
  CopyField,
  fieldErrorsOf,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
} from '../kit/ui';
import { useSite } from './queries';

type Site = Schemas['SiteDto'];
/** The update schema marks `is_active` and `timezone` as defaulted: a patch may leave them out. */
type SitePatch = Partial<Schemas['UpdateSiteDto']>;

/** A site's widget settings as the API answers them: every section, the defaults filled in. */
type WidgetSettings = Site['widget_settings'];
type Consent = WidgetSettings['consent'];

export function installSnippet(widgetKey: string): string {
  return `<script async src="${window.location.origin}/widget.js" data-widget-key="${widgetKey}"></script>`;
}

export default function SiteEditor() {
  const siteId = Number(useParams().siteId);
  const site = useSite(siteId);
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
  const settings = site.widget_settings;
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
      queryClient.setQueryData(keys.sites.one(site.id), result);
      void queryClient.invalidateQueries({ queryKey: keys.sites.all, exact: true });
      void queryClient.invalidateQueries({ queryKey: keys.sites.directory });
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
      <AppearanceForm
        value={settings.appearance}
        errors={sectionErrors('appearance')}
        saving={save.isPending && section === 'appearance'}
        onSave={(appearance) =>
          save.mutate({ section: 'appearance', patch: { widget_settings: { appearance } } })
        }
      />
      <AvailabilityForm
        value={{
          availability: settings.availability,
          offline: settings.offline,
          transcripts: settings.transcripts,
        }}
        errors={sectionErrors('away')}
        saving={save.isPending && section === 'away'}
        onSave={(away) => save.mutate({ section: 'away', patch: { widget_settings: away } })}
      />
      <PreChatEditor
        form={settings.pre_chat_form}
        errors={sectionErrors('prechat')}
        saving={save.isPending && section === 'prechat'}
        onSave={(form) =>
          save.mutate({
            section: 'prechat',
            patch: { widget_settings: { pre_chat_form: form } },
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
      <HelpCenterForm
        key={JSON.stringify(site.help_center)}
        value={site.help_center}
        errors={sectionErrors('help')}
        saving={save.isPending && section === 'help'}
        onSave={(help_center) => save.mutate({ section: 'help', patch: { help_center } })}
      />
      <PrivacyForm
        retentionDays={site.retention_days}
        consent={settings.consent}
        errors={sectionErrors('privacy')}
        saving={save.isPending && section === 'privacy'}
        onSave={(retention_days, consent) =>
          save.mutate({
            section: 'privacy',
            patch: { retention_days, widget_settings: { consent } },
          })
        }
      />
    </Stack>
  );
}

const HELP_LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'ar'] as const;
type HelpLocale = (typeof HELP_LOCALES)[number];
type HelpCenter = Schemas['HelpCenterSettingsDto'];

/**
 * The site's public help center (DESIGN section 10): on or off, its title, the languages it
 * shows and the one it opens in; the live address once it is on.
 */
function HelpCenterForm({
  value,
  errors,
  saving,
  onSave,
}: {
  value: HelpCenter;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (value: Schemas['HelpCenterSettingsInputDto']) => void;
}) {
  const [form, setForm] = useState({
    enabled: value.enabled,
    title: value.title ?? '',
    locales: value.locales,
    default_locale: value.default_locale,
  });
  const [invalid, setInvalid] = useState(false);
  const prefix = 'help_center';
  const languageName = (locale: HelpLocale) => t(`settings.sites.helpLocale.${locale}`);
  return (
    <FormCard
      id="site-help-center"
      title={t('settings.sites.helpCenter')}
      submitLabel={t('settings.sites.saveHelpCenter')}
      submitting={saving}
      onSubmit={() => {
        const missing = !form.locales.includes(form.default_locale);
        setInvalid(missing);
        if (missing) return;
        onSave({ ...form, title: form.title.trim() || null });
      }}
    >
      <Text size="sm" c="dimmed">
        {t('settings.sites.helpCenterHint')}
      </Text>
      <Switch
        label={t('settings.sites.helpCenterEnabled')}
        checked={form.enabled}
        onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
      />
      {value.enabled && (
        <Group gap="xs">
          <Text size="sm">{t('settings.sites.helpCenterLive')}</Text>
          <Anchor
            href={value.url}
            target="_blank"
            rel="noopener"
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
          >
            <Group gap={4} component="span" wrap="nowrap">
              {value.url}
              <IconExternalLink size={14} aria-hidden />
            </Group>
          </Anchor>
        </Group>
      )}
      <TextInput
        label={t('settings.sites.helpCenterTitle')}
        description={t('settings.sites.helpCenterTitleHint')}
        value={form.title}
        onChange={(e) => setForm({ ...form, title: e.currentTarget.value })}
        error={errors[`${prefix}.title`]}
      />
      <Checkbox.Group
        label={t('settings.sites.helpCenterLocales')}
        value={form.locales}
        onChange={(locales) =>
          setForm({ ...form, locales: HELP_LOCALES.filter((l) => locales.includes(l)) })
        }
        error={errors[`${prefix}.locales`]}
      >
        <Group gap="md" mt={4}>
          {HELP_LOCALES.map((locale) => (
            <Checkbox key={locale} value={locale} label={languageName(locale)} />
          ))}
        </Group>
      </Checkbox.Group>
      <NativeSelect
        label={t('settings.sites.helpCenterDefault')}
        data={HELP_LOCALES.map((locale) => ({ value: locale, label: languageName(locale) }))}
        value={form.default_locale}
        onChange={(e) => setForm({ ...form, default_locale: e.currentTarget.value as HelpLocale })}
        error={
          invalid
            ? t('settings.sites.helpCenterDefaultInvalid')
            : errors[`${prefix}.default_locale`]
        }
        maw={320}
      />
    </FormCard>
  );
}

/** Retention of closed conversations, and the consent the widget asks before the first message. */
function PrivacyForm({
  retentionDays,
  consent,
  errors,
  saving,
  onSave,
}: {
  retentionDays: number | null;
  consent: Consent;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (retentionDays: number | null, consent: Consent) => void;
}) {
  const [days, setDays] = useState(retentionDays === null ? '' : String(retentionDays));
  const [form, setForm] = useState(consent);
  const [invalid, setInvalid] = useState(false);
  const prefix = 'widget_settings.consent';
  return (
    <FormCard
      id="site-privacy"
      title={t('settings.sites.privacy')}
      submitLabel={t('settings.sites.savePrivacy')}
      submitting={saving}
      onSubmit={() => {
        const whole = /^\d{1,5}$/.test(days.trim());
        setInvalid(days.trim() !== '' && !whole);
        if (days.trim() !== '' && !whole) return;
        onSave(days.trim() === '' ? null : Number(days.trim()), {
          ...form,
          privacy_url: form.privacy_url?.trim() ? form.privacy_url.trim() : null,
        });
      }}
    >
      <TextInput
        label={t('settings.sites.retention')}
        description={t('settings.sites.retentionHint')}
        inputMode="numeric"
        value={days}
        onChange={(e) => setDays(e.currentTarget.value)}
        error={invalid ? t('settings.sites.retentionInvalid') : errors.retention_days}
        maw={320}
      />
      <Switch
        label={t('settings.sites.consentEnabled')}
        checked={form.enabled}
        onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
      />
      <Textarea
        label={t('settings.sites.consentText')}
        value={form.text}
        onChange={(e) => setForm({ ...form, text: e.currentTarget.value })}
        error={errors[`${prefix}.text`]}
        autosize
        minRows={2}
      />
      <TextInput
        label={t('settings.sites.consentUrl')}
        type="url"
        value={form.privacy_url ?? ''}
        onChange={(e) => setForm({ ...form, privacy_url: e.currentTarget.value })}
        error={errors[`${prefix}.privacy_url`]}
      />
    </FormCard>
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
        <Anchor component={Link} to={`/settings/install?site=${site.id}`}>
          {t('settings.sites.guides')}
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
