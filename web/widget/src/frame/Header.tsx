import { useEffect, useRef } from 'preact/hooks';
import { AgentAvatar } from '../features/chat/MessageList';
import { t } from '../i18n';

/** The frame's header: the title, who answers or whether anybody is online, and its buttons. */
export function Header(props: {
  title: string;
  subtitle?: string;
  /** The agent answering the chat, shown with their picture. */
  agent?: { name: string; avatarUrl: string | null };
  onMinimize?: () => void;
  onEnd?: () => void;
  menu?: boolean;
  onMenu?: () => void;
}) {
  return (
    <header class="header">
      {props.agent && <AgentAvatar name={props.agent.name} url={props.agent.avatarUrl} size={36} />}
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

/** "End chat" asks first, inside the widget; its buttons take the focus. */
export function EndChatConfirm(props: { onEnd: () => void; onKeep: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div class="confirm" role="alertdialog" aria-labelledby="end-question">
      <p id="end-question">{t('end.question')}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={props.onEnd}>
          {t('end.confirm')}
        </button>
        <button type="button" class="secondary" ref={keep} onClick={props.onKeep}>
          {t('end.cancel')}
        </button>
      </div>
    </div>
  );
}
