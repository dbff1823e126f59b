import { useState } from 'preact/hooks';
import type { Message } from '../../frame/chat-state';
import { t } from '../../i18n';

export type BotActionId = 'resolved' | 'handoff';

/**
 * The message the answer bot's buttons belong to: the latest bot message, when it has actions
 * and the visitor has not written since (a later bot message, such as the handoff sentence,
 * or a visitor's message retires them).
 */
export function botActionsMessage(messages: readonly Message[]): Message | undefined {
  const last = [...messages].reverse().find((m) => m.sender_type !== 'system');
  return last?.sender_type === 'bot' && (last.actions?.length ?? 0) > 0 ? last : undefined;
}

/** "That helped" / "Talk to a person" under the bot's answer; gone once one was pressed. */
export function BotActions(props: {
  message: Message;
  onAction: (id: BotActionId, message: Message) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const actions = props.message.actions ?? [];
  return (
    <div class="bot-actions" role="group" aria-label={t('bot.actions')}>
      {actions.map((action) => (
        <button
          key={action.id}
          type="button"
          class={action.id === 'resolved' ? 'primary' : 'secondary'}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void props.onAction(action.id, props.message).finally(() => setBusy(false));
          }}
        >
          {action.label}
        </button>
      ))}
    </div>
  );
}
