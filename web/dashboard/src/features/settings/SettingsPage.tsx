import { Alert, Box, Group, NavLink, Stack, Title } from '@mantine/core';
import {
  IconApi,
  IconBuilding,
  IconCalendar,
  IconDatabaseSearch,
  IconKey,
  IconMessage2,
  IconSettings,
  IconTags,
  IconUsers,
  IconWebhook,
  IconWorld,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { t, type MessageKey } from '../../i18n';
import ApiKeysSettings from './ApiKeysSettings';
import AppointmentsSettings from './AppointmentsSettings';
import DataLookupSettings from './DataLookupSettings';
import { CannedResponsesSettings, LabelsSettings } from './LabelsAndCanned';
import OrganizationSettings from './OrganizationSettings';
import { OwnersOnly } from './OwnersOnly';
import SiteEditor from './SiteEditor';
import SitesSettings from './SitesSettings';
import TeamSettings from './TeamSettings';
import TrustedLoginSettings from './TrustedLoginSettings';
import { isAdmin, QueryState, useMe } from './ui';
import WebhookDetail from './WebhookDetail';
import WebhooksSettings from './WebhooksSettings';
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
  { path: 'api-keys', label: 'settings.nav.apiKeys', icon: IconApi, adminOnly: true },
  { path: 'webhooks', label: 'settings.nav.webhooks', icon: IconWebhook, adminOnly: true },
  {
    path: 'data-lookup',
    label: 'settings.nav.dataLookup',
    icon: IconDatabaseSearch,
    adminOnly: true,
  },
  {
    path: 'appointments',
    label: 'settings.nav.appointments',
    icon: IconCalendar,
    adminOnly: false,
  },
  { path: 'trusted-login', label: 'settings.nav.trustedLogin', icon: IconKey, adminOnly: true },
  { path: 'canned', label: 'settings.nav.canned', icon: IconMessage2, adminOnly: true },
  { path: 'labels', label: 'settings.nav.labels', icon: IconTags, adminOnly: true },
];

/** Settings: a sub-navigation and one nested route per section (relative to /settings). */
export default function SettingsPage() {
  const me = useMe();
  const location = useLocation();
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
          <Route path="api-keys" element={only(<ApiKeysSettings />)} />
          <Route path="webhooks" element={only(<WebhooksSettings />)} />
          <Route path="webhooks/:webhookId" element={only(<WebhookDetail />)} />
          <Route path="data-lookup" element={only(<DataLookupSettings />)} />
          <Route path="trusted-login" element={only(<TrustedLoginSettings />)} />
          <Route path="canned" element={only(<CannedResponsesSettings />)} />
          <Route path="labels" element={only(<LabelsSettings />)} />
          <Route path="appointments" element={<AppointmentsSettings />} />
          <Route path="*" element={<Navigate to={first} replace />} />
        </Routes>
      </div>
    </div>
  );
}
