import { lazy, Suspense } from 'preact/compat';
import type { VisitorProfile, WidgetConfig } from '../api/client';
import { TranscriptForm } from '../features/chat/TranscriptForm';
import { t } from '../i18n';

// Loaded when first opened: the chat itself needs none of them.
const AccountPanel = lazy(() => import('../features/account/AccountPanel'));
const SearchPanel = lazy(() => import('../features/account/SearchPanel'));
const BookingPanel = lazy(() => import('../features/booking/BookingPanel'));
const HelpPanel = lazy(() => import('../features/help/HelpPanel'));

/** What the frame shows: the chat, or one of the menu's pages. */
export type Panel = 'chat' | 'help' | 'account' | 'search' | 'booking' | 'transcript';

/** The menu's pages the site's settings switch on, with their labels. */
export function menuItems(
  config: WidgetConfig,
  inConversation: boolean,
): { panel: Exclude<Panel, 'chat'>; label: string }[] {
  return [
    { panel: 'help' as const, label: t('menu.help') },
    ...(config.visitor_account_login.enabled
      ? [
          {
            panel: 'account' as const,
            label: config.visitor_account_login.menu_label || t('menu.login'),
          },
        ]
      : []),
    ...(config.filter_record.enabled
      ? [{ panel: 'search' as const, label: config.filter_record.button_label || t('menu.search') }]
      : []),
    { panel: 'booking' as const, label: t('menu.book') },
    ...(inConversation ? [{ panel: 'transcript' as const, label: t('transcript.menu') }] : []),
  ];
}

/** One of the menu's pages, with a way back to the chat (the help page has its own). */
export function PanelPage(props: {
  panel: Exclude<Panel, 'chat'>;
  label: string | undefined;
  config: WidgetConfig;
  profile: VisitorProfile;
  /** The visitor's conversation, when they have written in it. */
  conversationId: number | undefined;
  onBack: () => void;
  /** "Chat with us" from the help page. */
  onChat: () => void;
  onProfile: (profile: VisitorProfile) => void;
  onReply: (body: string) => void;
}) {
  const { panel, config, profile } = props;
  return (
    <section class="panel-page" aria-label={props.label}>
      {panel !== 'help' && (
        <button type="button" class="link back" onClick={props.onBack}>
          ← {t('menu.back')}
        </button>
      )}
      <Suspense fallback={<p role="status">{t('chat.connecting')}</p>}>
        {panel === 'help' && <HelpPanel onChat={props.onChat} />}
        {panel === 'account' && (
          <AccountPanel
            config={config}
            profile={profile}
            onProfile={props.onProfile}
            onReply={props.onReply}
          />
        )}
        {panel === 'search' && <SearchPanel config={config.filter_record} />}
        {panel === 'transcript' && (
          <TranscriptForm email={profile.email} conversationId={props.conversationId ?? 0} />
        )}
        {panel === 'booking' && (
          <BookingPanel profile={profile} conversationId={props.conversationId} />
        )}
      </Suspense>
    </section>
  );
}
