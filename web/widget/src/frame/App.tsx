import { useEffect, useRef, useState } from 'preact/hooks';
import { MessageBody } from '../components/MessageBody';
import { Composer } from '../features/chat/Composer';
import { MessageList } from '../features/chat/MessageList';
import { BotActions, botActionsMessage } from '../features/chat/BotActions';
import { AwayNotice } from '../features/chat/AwayNotice';
import { EmailPrompt } from '../features/chat/EmailPrompt';
import { OfflineForm } from '../features/chat/OfflineForm';
import { ConsentPrompt } from '../features/chat/ConsentPrompt';
import { PreChatForm } from '../features/chat/PreChatForm';
import { RatingForm } from '../features/chat/RatingForm';
import { type HostPage, useChat } from '../features/chat/use-chat';
import { useChatActions } from '../features/chat/use-chat-actions';
import { t } from '../i18n';
import {
  answeringAgent,
  awaitingRating,
  chatSurface,
  currentConversation,
  preChatDue,
} from './chat-state';
import { EndChatConfirm, Header } from './Header';
import { frameParams, toHost } from './host';
import { menuItems, type Panel, PanelPage } from './PanelPage';
import { session } from './session';
import { useHostMessages } from './use-host-messages';
import { useWidgetSession } from './use-widget-session';

/** The chat frame: session, live chat, and the panels the site's settings switch on. */
export function App({ locale }: { locale: string }) {
  const standalone = !frameParams.hostOrigin;
  const visitor = useWidgetSession(locale);
  const { init, profile, availability, agentsOnline, saveProfile } = visitor;
  const [open, setOpen] = useState(standalone);
  const [emailAsked, setEmailAsked] = useState(() => session.emailAsked(frameParams.widgetKey));
  const [panel, setPanel] = useState<Panel>('chat');
  const [menu, setMenu] = useState(false);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [erased, setErased] = useState(false);
  const [page, setPage] = useState<HostPage | undefined>();
  const input = useRef<HTMLTextAreaElement>(null);
  const focusInput = (after = 0) => setTimeout(() => input.current?.focus(), after);

  useHostMessages({
    open: () => {
      setOpen(true);
      focusInput(50);
    },
    close: () => setOpen(false),
    identify: visitor.identify,
    page: setPage,
  });

  const chat = useChat({
    token: init?.session_token,
    sessionKey: init,
    widgetKey: frameParams.widgetKey,
    open,
    onRefused: visitor.reconnect,
    onAgentsOnline: visitor.setAgentsOnline,
    onErased: () => {
      // The server ended the session: nothing of it is kept here either.
      session.forget(frameParams.widgetKey);
      setErased(true);
    },
    page,
  });
  const conversationId = init ? currentConversation(chat.state, init.conversation_id) : 0;
  const actions = useChatActions(conversationId, chat.dispatch);

  // An opened chat puts the keyboard in the message box (once there is one).
  const ready = !!init;
  useEffect(() => {
    if (open && ready) input.current?.focus();
  }, [open, ready]);

  // A pre-chat form due some minutes into the chat: the clock it is checked against.
  const config = init?.widget_config;
  const delay = config?.pre_chat_form.delay_minutes ?? 0;
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [delay]);

  const askedForEmail = () => {
    session.saveEmailAsked(frameParams.widgetKey);
    setEmailAsked(true);
  };

  const minimize = () => {
    setOpen(false);
    toHost({ type: 'close' });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    if (confirmEnd) setConfirmEnd(false);
    else if (menu) setMenu(false);
    else if (panel !== 'chat') setPanel('chat');
    else if (!standalone) minimize();
  };

  if (erased || !init || !config || !profile) {
    return (
      <main class="shell" aria-label={t('header.title')}>
        <Header title={t('header.title')} onMinimize={standalone ? undefined : minimize} />
        <div class="center" role="status">
          {erased
            ? t('privacy.erased')
            : visitor.failed
              ? t('chat.unavailable')
              : t('chat.connecting')}
        </div>
      </main>
    );
  }

  const look = config.appearance;
  const inConversation = chat.state.messages.some((m) => m.conversation_id === conversationId);
  const agent = answeringAgent(chat.state);
  const closed = chat.state.closed.includes(conversationId);
  const botMessage = botActionsMessage(chat.state.messages);
  const rate = awaitingRating(chat.state, conversationId);
  const { away, form, askEmail } = chatSurface({
    agentsOnline,
    withinBusinessHours: availability?.within_business_hours ?? true,
    offlineMode: config.offline?.mode ?? 'chat',
    inConversation,
    closed,
    preChatDue: preChatDue({
      enabled: config.pre_chat_form.enabled,
      submitted: profile.pre_chat_submitted,
      delayMinutes: delay,
      chatStartedAt: session.firstMessageAt(frameParams.widgetKey),
      now,
    }),
    emailKnown: !!profile.email,
    emailAsked,
  });
  const ticketForm = form === 'offline';
  // The site asks for consent before the first message, and the visitor has not agreed yet.
  const consentDue = !!config.consent?.enabled && !visitor.consentedAt;
  const items = menuItems(config, inConversation);

  return (
    <main class="shell" aria-label={t('header.title')} onKeyDown={onKeyDown}>
      <Header
        title={look.launcher_label || t('header.title')}
        subtitle={
          agent && !away
            ? t('header.answering', { name: agent.name })
            : away
              ? t('header.offline')
              : t('header.online')
        }
        agent={agent && !away ? agent : undefined}
        onMinimize={standalone ? undefined : minimize}
        onEnd={inConversation && !closed ? () => setConfirmEnd(true) : undefined}
        menu={menu}
        onMenu={() => setMenu((m) => !m)}
      />
      {confirmEnd && inConversation && !closed && (
        <EndChatConfirm
          onEnd={() => {
            setConfirmEnd(false);
            void actions.endChat();
          }}
          onKeep={() => {
            setConfirmEnd(false);
            input.current?.focus();
          }}
        />
      )}
      {menu && (
        <nav class="menu" aria-label={t('header.menu')}>
          {items.map((item) => (
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
        <PanelPage
          panel={panel}
          label={items.find((i) => i.panel === panel)?.label}
          config={config}
          profile={profile}
          conversationId={inConversation ? conversationId : undefined}
          onBack={() => setPanel('chat')}
          onChat={() => {
            setPanel('chat');
            focusInput();
          }}
          onProfile={saveProfile}
          onReply={actions.addReply}
        />
      ) : (
        <>
          {away && availability && !ticketForm && <AwayNotice availability={availability} />}
          <MessageList
            state={chat.state}
            greeting={look.greeting || t('chat.empty')}
            onRetry={chat.retry}
            tableActions={actions.tableActions}
            afterMessage={(m) =>
              m === botMessage && !closed && !actions.botAnswered.includes(m.id) ? (
                <BotActions message={m} onAction={actions.botAction} />
              ) : null
            }
            footer={
              <>
                {actions.localReplies.map((reply) => (
                  <div key={reply.key} class="msg theirs local">
                    <div class="bubble">
                      <MessageBody body={reply.body} actions={actions.tableActions} />
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
                {askEmail && (
                  <EmailPrompt
                    onSaved={(saved) => {
                      saveProfile(saved);
                      askedForEmail();
                      actions.addReply(t('notify.saved', { email: saved.email }));
                    }}
                    onDismiss={askedForEmail}
                  />
                )}
                {form === 'pre-chat' && (
                  <PreChatForm
                    config={config.pre_chat_form}
                    profile={profile}
                    onDone={saveProfile}
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
          {!form && consentDue && (
            <ConsentPrompt consent={config.consent} onAgreed={visitor.setConsentedAt} />
          )}
          {!form && !consentDue && (
            <Composer onSend={chat.send} onTyping={chat.typed} inputRef={input} />
          )}
        </>
      )}
    </main>
  );
}
