import { Alert, Box, Group, NativeSelect, NavLink, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconRobot,
  IconApi,
  IconBell,
  IconBolt,
  IconBuilding,
  IconCalendar,
  IconClipboardList,
  IconCode,
  IconDatabaseSearch,
  IconKey,
  IconMail,
  IconMessage2,
  IconSettings,
  IconTags,
  IconUsers,
  IconWebhook,
  IconWorld,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useMe } from '../../api/queries';
import { t, type MessageKey } from '../../i18n';
import ApiKeysSettings from './api-keys/ApiKeysSettings';
import AuditLogSettings from './security/AuditLogSettings';
import AnswerBotSettings from './answer-bot/AnswerBotSettings';
import AppointmentsSettings from './appointments/AppointmentsSettings';
import DataLookupSettings from './data-lookup/DataLookupSettings';
import EmailSettings from './email/EmailSettings';
import InstallSettings from './sites/InstallSettings';
import { CannedResponsesSettings, LabelsSettings } from './automation/LabelsAndCanned';
import MacrosSettings from './automation/MacrosSettings';
import NotificationSettings from './notifications/NotificationSettings';
import OrganizationSettings from './organization/OrganizationSettings';
import { OwnersOnly } from './kit/OwnersOnly';
import SiteEditor from './sites/SiteEditor';
import SitesSettings from './sites/SitesSettings';
import TeamSettings from './team/TeamSettings';
import SsoSettings from './security/SsoSettings';
import TrustedLoginSettings from './security/TrustedLoginSettings';
import { isAdmin, QueryState } from './kit/ui';
import WebhookDetail from './webhooks/WebhookDetail';
import WebhooksSettings from './webhooks/WebhooksSettings';
import classes from './settings.module.css';

interface Section {
  path: string;
  label: MessageKey;
  icon: ComponentType<{ size?: number }>;
  adminOnly: boolean;
}

const SECTIONS: Section[] = [
  {
    path: 'organization',
    label: 'settings.nav.organization',
    icon: IconBuilding,
    adminOnly: true,
  },
  { path: 'team', label: 'settings.nav.team', icon: IconUsers, adminOnly: true },
  { path: 'sites', label: 'settings.nav.sites', icon: IconWorld, adminOnly: true },
  // Needs the sites' widget keys: owners and admins (as the inbox's first-run guide).
  { path: 'install', label: 'settings.nav.install', icon: IconCode, adminOnly: true },
  { path: 'api-keys', label: 'settings.nav.apiKeys', icon: IconApi, adminOnly: true },
  { path: 'webhooks', label: 'settings.nav.webhooks', icon: IconWebhook, adminOnly: true },
  { path: 'email', label: 'settings.nav.email', icon: IconMail, adminOnly: true },
  {
    path: 'data-lookup',
    label: 'settings.nav.dataLookup',
    icon: IconDatabaseSearch,
    adminOnly: true,
  },
  { path: 'answer-bot', label: 'settings.nav.answerBot', icon: IconRobot, adminOnly: false },
  {
    path: 'appointments',
    label: 'settings.nav.appointments',
    icon: IconCalendar,
    adminOnly: false,
  },
  { path: 'trusted-login', label: 'settings.nav.trustedLogin', icon: IconKey, adminOnly: true },
  { path: 'sso', label: 'settings.nav.sso', icon: IconKey, adminOnly: true },
  { path: 'canned', label: 'settings.nav.canned', icon: IconMessage2, adminOnly: true },
  { path: 'labels', label: 'settings.nav.labels', icon: IconTags, adminOnly: true },
  { path: 'macros', label: 'settings.nav.macros', icon: IconBolt, adminOnly: true },
  { path: 'audit-log', label: 'settings.nav.audit', icon: IconClipboardList, adminOnly: true },
  {
    path: 'notifications',
    label: 'settings.nav.notifications',
    icon: IconBell,
    adminOnly: false,
  },
];

/** Settings: a sub-navigation and one nested route per section (relative to /settings). */
export default function SettingsPage() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  // The width under which the navigation sits above the page (settings.module.css).
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  if (!me.data) {
    return (
      <Box p="xl">
        <Title order={1} mb="lg">
          {t('settings.title')}
        </Title>
        <QueryState loading={me.isPending} error={me.error} />
      </Box>
    );
  }
  const admin = isAdmin(me.data.user.role);
  const current = SECTIONS.find((section) =>
    location.pathname.startsWith(`/settings/${section.path}`),
  );
  const sections = SECTIONS.filter((section) => admin || !section.adminOnly);
  const first = `/settings/${sections[0].path}`;
  // An agent at a section's address (a link, a bookmark) is told whose it is, never redirected:
  // a relative redirect under this splat route kept appending to the address (issue 26).
  const only = (element: ReactNode) =>
    admin ? element : <OwnersOnly organization={me.data.organization.name} />;
  const refused =
    !admin &&
    SECTIONS.some(
      (section) => section.adminOnly && location.pathname.startsWith(`/settings/${section.path}`),
    );
  return (
    <div className={classes.layout}>
      <Box component="nav" aria-label={t('settings.nav.label')} p="md" className={classes.nav}>
        <Group gap="xs" mb="md" px="xs">
          <IconSettings size={20} aria-hidden />
          <Title order={1} size="h3">
            {t('settings.title')}
          </Title>
        </Group>
        {phone ? (
          // A phone: the sections in one menu, so the page starts under it, not after 16 links.
          <NativeSelect
            label={t('settings.nav.section')}
            // An owners' page an agent opened stays named in the menu (its page says whose it is).
            data={(current && !sections.includes(current) ? [current, ...sections] : sections).map(
              (section) => ({
                value: section.path,
                label: t(section.label),
              }),
            )}
            value={current?.path ?? ''}
            onChange={(event) => void navigate(`/settings/${event.currentTarget.value}`)}
          />
        ) : (
          <Stack gap={2}>
            {sections.map((section) => {
              const to = `/settings/${section.path}`;
              const active = location.pathname.startsWith(to);
              return (
                <NavLink
                  key={section.path}
                  component={Link}
                  to={to}
                  label={t(section.label)}
                  leftSection={<section.icon size={18} />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                />
              );
            })}
          </Stack>
        )}
      </Box>
      <div className={classes.page}>
        {!admin && !refused && (
          <Alert color="blue" mb="lg">
            {t('settings.agentOnly')}
          </Alert>
        )}
        <Routes>
          <Route index element={<Navigate to={first} replace />} />
          <Route path="organization" element={only(<OrganizationSettings />)} />
          <Route path="team" element={only(<TeamSettings />)} />
          <Route path="sites" element={only(<SitesSettings />)} />
          <Route path="sites/:siteId" element={only(<SiteEditor />)} />
          <Route path="install" element={only(<InstallSettings />)} />
          <Route path="api-keys" element={only(<ApiKeysSettings />)} />
          <Route path="webhooks" element={only(<WebhooksSettings />)} />
          <Route path="webhooks/:webhookId" element={only(<WebhookDetail />)} />
          <Route path="email" element={only(<EmailSettings />)} />
          <Route path="data-lookup" element={only(<DataLookupSettings />)} />
          <Route path="trusted-login" element={only(<TrustedLoginSettings />)} />
          <Route
            path="sso"
            element={only(<SsoSettings organizationId={me.data.organization.id} />)}
          />
          <Route path="canned" element={only(<CannedResponsesSettings />)} />
          <Route path="labels" element={only(<LabelsSettings />)} />
          <Route path="macros" element={only(<MacrosSettings />)} />
          <Route path="audit-log" element={only(<AuditLogSettings />)} />
          <Route path="answer-bot" element={<AnswerBotSettings />} />
          <Route path="appointments" element={<AppointmentsSettings />} />
          <Route path="notifications" element={<NotificationSettings />} />
          <Route path="*" element={<Navigate to={first} replace />} />
        </Routes>
      </div>
    </div>
  );
}
