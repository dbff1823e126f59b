import { lazy, Suspense } from 'preact/compat';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile, type WidgetExtras } from '../api/client';
import { MessageBody, type TableActions } from '../components/MessageBody';
import { Composer } from '../features/chat/Composer';
import { MessageList } from '../features/chat/MessageList';
import { OfflineForm } from '../features/chat/OfflineForm';
import { PreChatForm } from '../features/chat/PreChatForm';
import { RatingForm } from '../features/chat/RatingForm';
import { useChat } from '../features/chat/use-chat';
import { t } from '../i18n';
import type { TableBlock } from '../../../shared/table-markup';
import { awaitingRating, currentConversation, preChatDue } from './chat-state';
import { endSession, startSession, type InitAnswer } from './boot';
import { frameParams, onHost, toHost } from './host';
import { session } from './session';

const AccountPanel = lazy(() => import('../features/account/AccountPanel'));
const SearchPanel = lazy(() => import('../features/account/SearchPanel'));
const BookingPanel = lazy(() => import('../features/booking/BookingPanel'));

type Panel = 'chat' | 'account' | 'search' | 'booking';
type Identity = { name?: string; email?: string; phone?: string };

/** The chat frame: session, live chat, and the panels the site's settings switch on. */
export function App({ locale }: { locale: string }) {
  const standalone = !frameParams.hostOrigin;
  const [init, setInit] = useState<InitAnswer | undefined>();
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(standalone);
  const [profile, setProfile] = useState<VisitorProfile | undefined>();
  const [agentsOnline, setAgentsOnline] = useState(true);
  const [panel, setPanel] = useState<Panel>('chat');
  const [menu, setMenu] = useState(false);
  const [localReplies, setLocalReplies] = useState<{ key: number; body: string }[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const identity = useRef<Identity>({});
  const input = useRef<HTMLTextAreaElement>(null);

  const [generation, setGeneration] = useState(0);
  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);

  // The session: init (again after `identify` or a refused token), retried slower each time
  // while the service cannot be reached.
  useEffect(() => {
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      setFailed(false);
      try {
        const answer = await startSession({ locale, ...identity.current });
        if (stopped) return;
        setInit(answer);
        setProfile(answer.visitor_profile);
        const extras = answer.widget_config as WidgetExtras;
        setAgentsOnline(extras.agents_online ?? true);
        announce(answer.visitor_id, extras.appearance ?? {});
      } catch {
        if (stopped) return;
        setFailed(true);
        timer = setTimeout(() => void run(), Math.min(30_000, 1000 * 2 ** attempt++));
      }
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [locale, generation]);

  useEffect(
    () =>
      onHost((message) => {
        switch (message.type) {
          case 'open':
            setOpen(true);
            setTimeout(() => input.current?.focus(), 50);
            break;
          case 'close':
            setOpen(false);
            break;
          case 'identify':
            identity.current = { name: message.name, email: message.email, phone: message.phone };
            reconnect();
            break;
          case 'shutdown':
            void endSession().then(() => toHost({ type: 'bye' }));
            break;
          case 'session':
            // The host page's copy of the session: read by the session store as the frame starts.
            break;
        }
      }),
    [reconnect],
  );

  // Hello once the loader's messages have a listener: the loader then sends what it queued
  // (an `open` clicked before the frame had loaded would otherwise be lost).
  useEffect(() => toHost({ type: 'hello' }), []);

  const chat = useChat({
    token: init?.session_token,
    widgetKey: frameParams.widgetKey,
    open,
    onRefused: reconnect,
    onAgentsOnline: setAgentsOnline,
  });

  // An opened chat puts the keyboard in the message box (once there is one).
  const ready = !!init;
  useEffect(() => {
    if (open && ready) input.current?.focus();
  }, [open, ready]);

  const config = init?.widget_config;
  const delay = config?.pre_chat_form.delay_minutes ?? 0;
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [delay]);

  const minimize = () => {
    setOpen(false);
    toHost({ type: 'close' });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    if (menu) setMenu(false);
    else if (panel !== 'chat') setPanel('chat');
    else if (!standalone) minimize();
  };

  const conversationId = init ? currentConversation(chat.state, init.conversation_id) : 0;
  const tableActions: TableActions = {
    more: (table: TableBlock) => void lookupCall(table, 'more'),
    rowAction: (table, actionId, row) => void lookupCall(table, actionId, row),
  };
  const addReply = (body: string) =>
    setLocalReplies((list) => [...list, { key: Date.now() + list.length, body }]);

  async function lookupCall(table: TableBlock, action: string, row?: Record<string, unknown>) {
    const lookup = table.lookup;
    if (!lookup) return;
    try {
      if (action === 'more') {
        const answer = await unwrap(
          api.POST('/api/widget/data-lookup/paginate', {
            body: {
              conversation_id: conversationId,
              rule_id: lookup.rule_id,
              page: lookup.page + 1,
            },
          }),
        );
        addReply(answer.reply_body);
      } else {
        const answer = await unwrap(
          api.POST('/api/widget/data-lookup/row-action', {
            body: {
              conversation_id: conversationId,
              rule_id: lookup.rule_id,
              action_id: action,
              row: row ?? {},
            },
          }),
        );
        addReply(answer.reply_body);
      }
    } catch (error) {
      addReply(error instanceof ApiError ? error.message : t('error.generic'));
    }
  }

  const endChat = async () => {
    try {
      const answer = await unwrap(api.POST('/api/widget/end-chat', {}));
      chat.dispatch({ type: 'conversation', conversationId: answer.data.id, status: 'closed' });
    } catch {
      addReply(t('error.generic'));
    }
  };

  if (!init || !config || !profile) {
    return (
      <main class="shell" aria-label={t('header.title')}>
        <Header title={t('header.title')} onMinimize={standalone ? undefined : minimize} />
        <div class="center" role="status">
          {failed ? t('chat.unavailable') : t('chat.connecting')}
        </div>
      </main>
    );
  }

  const look = (config as WidgetExtras).appearance ?? {};
  const inConversation = chat.state.messages.some((m) => m.conversation_id === conversationId);
  const closed = chat.state.closed.includes(conversationId);
  const rate = awaitingRating(chat.state, conversationId);
  const preChat = preChatDue({
    enabled: config.pre_chat_form.enabled,
    submitted: profile.pre_chat_submitted,
    delayMinutes: delay,
    chatStartedAt: session.firstMessageAt(frameParams.widgetKey),
    now,
  });
  const offline = !agentsOnline && (!inConversation || closed);
  // One form at a time: nobody online, the offline form (it asks for the name and email itself);
  // else a due pre-chat form; else the message box.
  const form = offline ? 'offline' : preChat ? 'pre-chat' : undefined;
  const menuItems: { panel: Panel; label: string }[] = [
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
  ];

  return (
    <main class="shell" aria-label={t('header.title')} onKeyDown={onKeyDown}>
      <Header
        title={look.launcher_label || t('header.title')}
        subtitle={agentsOnline ? t('header.online') : t('header.offline')}
        onMinimize={standalone ? undefined : minimize}
        onEnd={inConversation && !closed ? () => void endChat() : undefined}
        menu={menu}
        onMenu={() => setMenu((m) => !m)}
      />
      {menu && (
        <nav class="menu" aria-label={t('header.menu')}>
          {menuItems.map((item) => (
            <button
              key={item.panel}
              type="button"
              onClick={() => {
                setPanel(item.panel);
                setMenu(false);
              }}
            >
              {item.label}
            </button>
          ))}
        </nav>
      )}
      {panel !== 'chat' ? (
        <section class="panel-page" aria-label={menuItems.find((i) => i.panel === panel)?.label}>
          <button type="button" class="link back" onClick={() => setPanel('chat')}>
            ← {t('menu.back')}
          </button>
          <Suspense fallback={<p role="status">{t('chat.connecting')}</p>}>
            {panel === 'account' && (
              <AccountPanel
                config={config}
                profile={profile}
                onProfile={setProfile}
                onReply={addReply}
              />
            )}
            {panel === 'search' && <SearchPanel config={config.filter_record} />}
            {panel === 'booking' && (
              <BookingPanel
                profile={profile}
                conversationId={inConversation ? conversationId : undefined}
              />
            )}
          </Suspense>
        </section>
      ) : (
        <>
          <MessageList
            state={chat.state}
            greeting={look.greeting || t('chat.empty')}
            onRetry={chat.retry}
            tableActions={tableActions}
            footer={
              <>
                {localReplies.map((reply) => (
                  <div key={reply.key} class="msg theirs local">
                    <div class="bubble">
                      <MessageBody body={reply.body} actions={tableActions} />
                    </div>
                  </div>
                ))}
                {closed && inConversation && (
                  <div class="ended">
                    <p role="status">{t('chat.ended')}</p>
                    {(rate || chat.state.rated.includes(conversationId)) && (
                      <RatingForm
                        conversationId={conversationId}
                        onRated={() => chat.dispatch({ type: 'rated', conversationId })}
                      />
                    )}
                    <button type="button" class="link" onClick={() => input.current?.focus()}>
                      {t('chat.new')}
                    </button>
                  </div>
                )}
                {form === 'offline' && <OfflineForm profile={profile} />}
                {form === 'pre-chat' && (
                  <PreChatForm
                    config={config.pre_chat_form}
                    profile={profile}
                    onDone={setProfile}
                  />
                )}
              </>
            }
          />
          <p class="typing" role="status">
            {chat.state.agentTyping ? t('chat.typing') : ''}
          </p>
          {chat.connection === 'reconnecting' && (
            <p class="banner" role="status">
              {t('chat.reconnecting')}
            </p>
          )}
          {!form && <Composer onSend={chat.send} onTyping={chat.typed} inputRef={input} />}
        </>
      )}
    </main>
  );
}

function Header(props: {
  title: string;
  subtitle?: string;
  onMinimize?: () => void;
  onEnd?: () => void;
  menu?: boolean;
  onMenu?: () => void;
}) {
  return (
    <header class="header">
      <div class="titles">
        <h1>{props.title}</h1>
        {props.subtitle && <p>{props.subtitle}</p>}
      </div>
      {props.onMenu && (
        <button
          type="button"
          class="icon"
          aria-label={t('header.menu')}
          aria-expanded={props.menu}
          onClick={props.onMenu}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
            <circle cx="5" cy="12" r="2" />
            <circle cx="12" cy="12" r="2" />
            <circle cx="19" cy="12" r="2" />
          </svg>
        </button>
      )}
      {props.onEnd && (
        <button type="button" class="pill" onClick={props.onEnd}>
          {t('header.end')}
        </button>
      )}
      {props.onMinimize && (
        <button
          type="button"
          class="icon"
          aria-label={t('header.minimize')}
          onClick={props.onMinimize}
        >
          <svg
            width="20"
            height="20"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            stroke-width="2.5"
            stroke-linecap="round"
          >
            <path d="M6 9l6 6 6-6" />
          </svg>
        </button>
      )}
    </header>
  );
}

/** Tells the loader the session is ready and how the launcher should look. */
function announce(visitorId: number, look: NonNullable<WidgetExtras['appearance']>): void {
  document.documentElement.style.setProperty('--c', look.color ?? '#2563eb');
  toHost({ type: 'ready', visitor_id: visitorId });
  toHost({
    type: 'config',
    color: look.color ?? '#2563eb',
    position: look.position === 'left' ? 'left' : 'right',
    launcher_label: look.launcher_label ?? '',
    labels: { open: t('launcher.open'), close: t('launcher.close'), unread: t('launcher.unread') },
  });
}
