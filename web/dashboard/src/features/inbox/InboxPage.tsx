import { Anchor, Center, Drawer, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { IconMessageCircle } from '@tabler/icons-react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  type InboxView,
  useConversation,
  useConversations,
  useLabels,
  useMe,
  useSiteNames,
  useSites,
  useTeamDirectory,
} from '../../api/queries';
import { t } from '../../i18n';
import { ConversationList } from './ConversationList';
import { ConversationView } from './ConversationView';
import classes from './inbox.module.css';
import { InstallWidget } from './InstallWidget';
import { VisitorPanel } from './VisitorPanel';
import { useShortcuts } from '../../app/useShortcuts';

const VIEWS = ['all', 'mine', 'unassigned', 'missed', 'snoozed', 'closed'] as const;
/** The views the keys 1 to 6 open (the order of the view list). */
export const VIEW_KEYS = ['mine', 'unassigned', 'all', 'missed', 'snoozed', 'closed'] as const;

function parseView(value: string | null): InboxView {
  if (value?.startsWith('site:')) return { kind: 'site', siteId: Number(value.slice(5)) };
  if (value?.startsWith('label:')) return { kind: 'label', label: value.slice(6) };
  const kind = VIEWS.find((v) => v === value) ?? 'all';
  return { kind };
}

function viewValue(view: InboxView): string {
  if (view.kind === 'site') return `site:${view.siteId}`;
  if (view.kind === 'label') return `label:${view.label}`;
  return view.kind;
}

export default function InboxPage() {
  const params = useParams();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const view = parseView(searchParams.get('view'));
  const search = searchParams.get('view') ? `?view=${encodeURIComponent(viewValue(view))}` : '';
  const selectedId = params.conversationId ? Number(params.conversationId) : undefined;

  const me = useMe().data?.user;
  // The width under which the visitor panel leaves the layout (inbox.module.css).
  const narrow = useMediaQuery('(max-width: 1100px)') ?? false;
  const [visitorOpen, setVisitorOpen] = useState(false);
  const team = useTeamDirectory().data ?? [];
  const sites = useSiteNames().data ?? [];
  // The install card needs a site's widget key: only owners and admins read those.
  const admin = me?.role === 'owner' || me?.role === 'admin';
  const installable = useSites(admin).data ?? [];
  const labels = useLabels().data ?? [];
  const list = useConversations(view);
  const everything = useConversations({ kind: 'all' });
  const selected = useConversation(selectedId);

  const move = (step: number) => {
    const items = list.data ?? [];
    if (!items.length) return;
    // The address, not this render's id: a second key pressed before the switch it asked for
    // has rendered moves on from there (j j j goes three down, not one).
    const current = /^\/inbox\/(\d+)/.exec(window.location.pathname)?.[1];
    const index = items.findIndex((c) => String(c.id) === current);
    const next = items[Math.min(items.length - 1, Math.max(0, index + step))] ?? items[0];
    void navigate(`/inbox/${next.id}${search}`);
  };
  useShortcuts([
    ['j', () => move(1)],
    ['k', () => move(-1)],
    // 1 to 6: the views, in the order the view list shows them.
    ...VIEW_KEYS.map(
      (kind, index) =>
        [String(index + 1), () => void navigate(`/inbox?view=${kind}`)] as [string, () => void],
    ),
  ]);

  const firstRun = everything.data?.length === 0 && installable[0];

  return (
    <div
      className={classes.layout}
      data-pane={selectedId !== undefined ? 'conversation' : firstRun ? 'install' : 'list'}
    >
      <div className={classes.column}>
        <Stack gap="xs" p="md" pb="xs">
          <Group justify="space-between">
            <Title order={1} size="h3">
              {t('inbox.title')}
            </Title>
          </Group>
          <NativeSelect
            label={t('inbox.view')}
            size="sm"
            value={viewValue(view)}
            onChange={(event) =>
              void navigate(`/inbox?view=${encodeURIComponent(event.currentTarget.value)}`)
            }
          >
            <optgroup label={t('inbox.view.group.views')}>
              {(['mine', 'unassigned', 'all', 'missed', 'snoozed', 'closed'] as const).map(
                (kind) => (
                  <option key={kind} value={kind}>
                    {t(`inbox.view.${kind}`)}
                  </option>
                ),
              )}
            </optgroup>
            {labels.length > 0 && (
              <optgroup label={t('inbox.view.group.labels')}>
                {labels.map((label) => (
                  <option key={label.id} value={`label:${label.name}`}>
                    {t('inbox.view.label', { name: label.name })}
                  </option>
                ))}
              </optgroup>
            )}
            {sites.length > 0 && (
              <optgroup label={t('inbox.view.group.sites')}>
                {sites.map((site) => (
                  <option key={site.id} value={`site:${site.id}`}>
                    {t('inbox.view.site', { name: site.name })}
                  </option>
                ))}
              </optgroup>
            )}
          </NativeSelect>
        </Stack>
        <ConversationList
          conversations={list.data}
          loading={list.isPending}
          error={list.isError}
          selectedId={selectedId}
          search={search}
        />
      </div>
      <div className={classes.column} style={{ background: 'var(--mantine-color-gray-0)' }}>
        {selectedId !== undefined && me ? (
          <ConversationView
            key={selectedId}
            id={selectedId}
            me={me}
            team={team}
            onShowVisitor={narrow ? () => setVisitorOpen(true) : undefined}
          />
        ) : firstRun ? (
          <Center style={{ flex: 1 }} p="xl">
            <InstallWidget site={firstRun} />
          </Center>
        ) : (
          <Center style={{ flex: 1 }}>
            <Stack align="center" gap={4} c="dimmed">
              <IconMessageCircle size={40} stroke={1.3} aria-hidden />
              <Text fw={600}>{t('inbox.pick.title')}</Text>
              <Text size="sm">{t('inbox.pick.hint')}</Text>
              {/* The install guide stays reachable after the first chat (Settings → Install). */}
              {admin && (
                <Anchor component={Link} to="/settings/install" size="sm" mt="sm">
                  {t('inbox.install.link')}
                </Anchor>
              )}
            </Stack>
          </Center>
        )}
      </div>
      {/* No room beside the chat (tablets, phones): the visitor panel opens in a drawer. */}
      <Drawer
        opened={narrow && visitorOpen && selected.data !== undefined}
        onClose={() => setVisitorOpen(false)}
        position="right"
        size="md"
        title={t('inbox.panel.show')}
        closeButtonProps={{ 'aria-label': t('inbox.panel.close') }}
      >
        {selected.data && <VisitorPanel conversation={selected.data} sites={sites} />}
      </Drawer>
      {/* Focusable: the panel scrolls on its own, and may hold nothing else that takes focus. */}
      <aside className={classes.panel} aria-label={t('inbox.panel.title')} tabIndex={0}>
        {selected.data && <VisitorPanel conversation={selected.data} sites={sites} />}
      </aside>
    </div>
  );
}
