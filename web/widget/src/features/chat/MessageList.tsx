import { useEffect, useRef } from 'preact/hooks';
import { Attachments } from '../../components/Attachments';
import { MessageBody, type TableActions } from '../../components/MessageBody';
import type { ChatState, Message } from '../../frame/chat-state';
import { t } from '../../i18n';

const sender = (m: Message) =>
  m.sender_type === 'visitor'
    ? t('chat.you')
    : m.sender_type === 'bot'
      ? t('chat.bot')
      : (m.sender_name ?? t('chat.agent'));

/** The same agent wrote the message before in the same conversation: no second name line. */
const sameAuthor = (prev: Message | undefined, m: Message) =>
  prev !== undefined &&
  prev.conversation_id === m.conversation_id &&
  prev.sender_type === m.sender_type &&
  prev.sender_name === m.sender_name;

/** An agent's picture, or the first letter of the name (decorative: the name is beside it). */
export function AgentAvatar(props: { name: string; url: string | null; size?: number }) {
  const size = props.size ?? 22;
  return props.url ? (
    <img class="avatar" src={props.url} alt="" width={size} height={size} />
  ) : (
    <span class="avatar" style={{ width: `${size}px`, height: `${size}px` }} aria-hidden="true">
      {props.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The conversation as a log (new messages are announced), oldest first. */
export function MessageList(props: {
  state: ChatState;
  greeting: string;
  onRetry: (clientId: string) => void;
  tableActions: TableActions;
  footer?: preact.ComponentChildren;
  /** What follows a message (the answer bot's buttons). */
  afterMessage?: (m: Message) => preact.ComponentChildren;
}) {
  const { state, greeting, onRetry, tableActions, footer, afterMessage } = props;
  const end = useRef<HTMLDivElement>(null);
  const lastVisitor = [...state.messages].reverse().find((m) => m.sender_type === 'visitor');
  const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [state.messages.length, state.pending.length, footer]);

  return (
    <div class="log-scroll">
      <p class="greeting">{greeting}</p>
      <div role="log" aria-label={t('chat.log')} class="log">
        {state.messages.map((m, i) => {
          const prev = state.messages[i - 1];
          return (
            <div key={m.id}>
              {prev && prev.conversation_id !== m.conversation_id && (
                <p class="divider">{t('chat.ended')}</p>
              )}
              <div class={`msg ${m.sender_type === 'visitor' ? 'mine' : 'theirs'}`}>
                {m.sender_type === 'agent' && m.sender_name && !sameAuthor(prev, m) ? (
                  <span class="author" aria-hidden="true">
                    <AgentAvatar name={m.sender_name} url={m.sender_avatar_url ?? null} />
                    {m.sender_name}
                  </span>
                ) : null}
                <span class="sr-only">{sender(m)}: </span>
                <div class="bubble">
                  {m.body.trim() !== '' && <MessageBody body={m.body} actions={tableActions} />}
                  <Attachments items={m.attachments} />
                </div>
                <span class="meta">
                  <time dateTime={m.created_at}>{time.format(new Date(m.created_at))}</time>
                  {m === lastVisitor && state.agentReadUpTo >= m.id && <> · {t('chat.seen')}</>}
                  {m.type === 'generated' && <> · {t('chat.generated')}</>}
                </span>
              </div>
              {afterMessage?.(m)}
            </div>
          );
        })}
        {state.pending.map((p) => (
          <div key={p.clientId} class="msg mine pending">
            <span class="sr-only">{t('chat.you')}: </span>
            <div class="bubble">
              {p.body && <p class="text">{p.body}</p>}
              {p.fileNames?.map((name) => (
                <p key={name} class="text">
                  📎 {name}
                </p>
              ))}
            </div>
            <span class="meta">
              {p.state === 'sending' ? (
                t('chat.sending')
              ) : (
                <>
                  {t('chat.failed')}{' '}
                  <button type="button" class="link" onClick={() => onRetry(p.clientId)}>
                    {t('chat.retry')}
                  </button>
                </>
              )}
            </span>
          </div>
        ))}
      </div>
      {footer}
      <div ref={end} />
    </div>
  );
}
