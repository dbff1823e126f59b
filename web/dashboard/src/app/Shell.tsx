import {
  Alert,
  AppShell,
  Avatar,
  Badge,
  Burger,
  Button,
  ColorSwatch,
  Group,
  Menu,
  NavLink,
  SegmentedControl,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBook,
  IconBuilding,
  IconChartBar,
  IconCheck,
  IconInbox,
  IconKeyboard,
  IconLogout,
  IconMessages,
  IconSearch,
  IconSettings,
  IconShieldLock,
  IconTicket,
  IconCalendarEvent,
  IconUserCircle,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useSyncExternalStore } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { useMe } from '../api/queries';
import { keys } from '../api/keys';
import { agentChannel } from '../api/socket';
import { t, type MessageKey } from '../i18n';
import { PageLoader } from './App';
import { KeyboardSheet } from './KeyboardSheet';
import { useNotifications } from './useNotifications';
import { useShortcuts } from './useShortcuts';

const NAV: { to: string; label: MessageKey; icon: typeof IconInbox }[] = [
  { to: '/inbox', label: 'app.nav.inbox', icon: IconInbox },
  { to: '/tickets', label: 'app.nav.tickets', icon: IconTicket },
  { to: '/appointments', label: 'app.nav.appointments', icon: IconCalendarEvent },
  { to: '/search', label: 'app.nav.search', icon: IconSearch },
  { to: '/reports', label: 'app.nav.reports', icon: IconChartBar },
  { to: '/kb', label: 'app.nav.kb', icon: IconBook },
  { to: '/settings', label: 'app.nav.settings', icon: IconSettings },
];
/** Platform administrators only (`platform_admin` in /api/agent/me). */
const ADMIN_NAV = { to: '/admin', label: 'app.nav.admin', icon: IconShieldLock } as const;

/** The logged-in frame: navigation, the agent's name, presence and account menu. */
export function Shell() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure();
  const [sheetOpened, sheet] = useDisclosure();
  const connected = useSyncExternalStore(
    (onChange) => agentChannel.on('connected', onChange),
    () => agentChannel.connected,
  );

  // A member held until it sets up two-factor authentication gets no socket (the server refuses it).
  const loggedIn = me.data !== undefined && !me.data.two_factor_setup_required;
  useEffect(() => {
    if (!loggedIn) return;
    agentChannel.start(queryClient);
  }, [loggedIn, queryClient]);
  // The socket sets the agent online when it connects: show what the server now holds.
  useEffect(() => {
    if (connected) void queryClient.invalidateQueries({ queryKey: keys.me.all });
  }, [connected, queryClient]);
  useNotifications(me.data?.user.id);
  useShortcuts([['shift+?', sheet.open]]);
  useEffect(closeNav, [location.pathname, closeNav]);

  const presence = useMutation({
    mutationFn: (status: 'online' | 'away') =>
      unwrap(api.PATCH('/api/agent/presence', { body: { status } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.me.all }),
  });
  const switchTo = useMutation({
    mutationFn: (organizationId: number) =>
      unwrap(
        api.POST('/api/agent/auth/switch-organization', {
          body: { organization_id: organizationId },
        }),
      ),
    onSuccess: () => {
      // Another organization's data: nothing of the old one stays on screen or in the cache.
      agentChannel.stop();
      queryClient.clear();
      void navigate('/inbox');
    },
  });
  const logout = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/auth/logout')),
    onSettled: () => {
      agentChannel.stop();
      queryClient.clear();
      void navigate('/login');
    },
  });

  if (me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  if (!me.data) return <PageLoader />;
  // The organization requires two-factor authentication: nothing else until it is set up.
  if (me.data.two_factor_setup_required && location.pathname !== '/account') {
    return <Navigate to="/account" replace />;
  }
  const { user, organization } = me.data;
  const status = user.status === 'away' ? 'away' : 'online';

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding={0}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('app.nav.toggle')}
            />
            <IconMessages size={24} color="var(--mantine-color-indigo-6)" aria-hidden />
            <Text fw={700} size="lg" visibleFrom="xs">
              {t('app.name')}
            </Text>
            <Text c="dimmed" size="sm" visibleFrom="sm">
              {organization.name}
            </Text>
          </Group>
          <Group gap="md" wrap="nowrap">
            <Badge
              variant="dot"
              color={connected ? 'teal' : 'orange'}
              visibleFrom="sm"
              role="status"
            >
              {connected ? t('app.connection.live') : t('app.connection.offline')}
            </Badge>
            <SegmentedControl
              size="xs"
              aria-label={t('app.presence.label')}
              value={status}
              onChange={(value) => presence.mutate(value === 'away' ? 'away' : 'online')}
              data={[
                {
                  value: 'online',
                  label: <PresenceLabel color="teal" text={t('app.presence.online')} />,
                },
                {
                  value: 'away',
                  label: <PresenceLabel color="yellow" text={t('app.presence.away')} />,
                },
              ]}
            />
            <Menu position="bottom-end" width={220}>
              <Menu.Target>
                <UnstyledButton aria-label={t('app.account.menu', { name: user.name })}>
                  <Group gap={8} wrap="nowrap">
                    <Avatar size={32} radius="xl" color="indigo" src={user.avatar_url} alt="" />
                    <Text size="sm" fw={500} visibleFrom="md">
                      {user.name}
                    </Text>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user.email}</Menu.Label>
                {me.data.organizations.length > 1 && (
                  <>
                    <Menu.Divider />
                    <Menu.Label>{t('app.account.organizations')}</Menu.Label>
                    {me.data.organizations.map((item) =>
                      item.id === organization.id ? (
                        <Menu.Item
                          key={item.id}
                          leftSection={<IconCheck size={16} />}
                          aria-current="true"
                          aria-label={t('app.account.current', { name: item.name })}
                        >
                          {item.name}
                        </Menu.Item>
                      ) : (
                        <Menu.Item
                          key={item.id}
                          leftSection={<IconBuilding size={16} />}
                          onClick={() => switchTo.mutate(item.id)}
                          aria-label={t('app.account.switchTo', { name: item.name })}
                        >
                          {item.name}
                        </Menu.Item>
                      ),
                    )}
                    <Menu.Divider />
                  </>
                )}
                <Menu.Item
                  leftSection={<IconUserCircle size={16} />}
                  component={Link}
                  to="/account"
                >
                  {t('app.account.settings')}
                </Menu.Item>
                <Menu.Item leftSection={<IconKeyboard size={16} />} onClick={sheet.open}>
                  {t('app.account.shortcuts')}
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item
                  color="red"
                  leftSection={<IconLogout size={16} />}
                  onClick={() => logout.mutate()}
                >
                  {t('app.account.logout')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('app.nav.label')}>
        {(me.data.platform_admin ? [...NAV, ADMIN_NAV] : NAV).map(({ to, label, icon: Icon }) => {
          const active = location.pathname === to || location.pathname.startsWith(`${to}/`);
          return (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={t(label)}
              leftSection={<Icon size={18} stroke={1.6} />}
              active={active}
              aria-current={active ? 'page' : undefined}
              variant="light"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
      </AppShell.Navbar>
      <AppShell.Main>
        {!me.data.email_verified && <UnverifiedBanner />}
        {organization.suspended_at && (
          <Alert color="red" radius={0} role="alert">
            {t('app.suspended', { reason: organization.suspension_reason ?? '' })}
          </Alert>
        )}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <KeyboardSheet opened={sheetOpened} onClose={sheet.close} />
    </AppShell>
  );
}

/** Until the address is confirmed (issue 28): say so, and offer the link again. */
function UnverifiedBanner() {
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/me/email-verification')),
  });
  return (
    <Alert color="yellow" radius={0} role="status">
      <Group gap="sm" justify="space-between">
        <Text size="sm">{t('auth.banner.unverified')}</Text>
        {resend.isSuccess ? (
          <Text size="sm" fw={500}>
            {t('auth.banner.resent')}
          </Text>
        ) : (
          <Button
            size="xs"
            // White on the yellow banner: a grey light button there read as a disabled one.
            variant="default"
            loading={resend.isPending}
            onClick={() => resend.mutate()}
          >
            {t('auth.banner.resend')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

function PresenceLabel({ color, text }: { color: string; text: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch
        color={`var(--mantine-color-${color}-6)`}
        size={8}
        withShadow={false}
        aria-hidden
      />
      {text}
    </Group>
  );
}
