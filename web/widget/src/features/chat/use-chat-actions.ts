import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import type { TableActions } from '../../components/MessageBody';
import { t } from '../../i18n';
import type { TableBlock } from '../../../../shared/table-markup';
import type { BotActionId } from './BotActions';
import type { ChatAction } from '../../frame/chat-state';

/**
 * What the visitor does to the conversation besides writing: a data-lookup table's "more" and
 * row actions, the answer bot's "That helped" and "Talk to a person", ending the chat. Answers
 * that are not messages (a lookup's next page, an error) are shown as local replies.
 */
export function useChatActions(conversationId: number, dispatch: (action: ChatAction) => void) {
  const [localReplies, setLocalReplies] = useState<{ key: number; body: string }[]>([]);
  // Bot answers whose buttons the visitor pressed (until the handoff message arrives).
  const [botAnswered, setBotAnswered] = useState<number[]>([]);

  const addReply = (body: string) =>
    setLocalReplies((list) => [...list, { key: Date.now() + list.length, body }]);
  const failed = (error: unknown) =>
    addReply(error instanceof ApiError ? error.message : t('error.generic'));

  async function lookupCall(table: TableBlock, action: string, row?: Record<string, unknown>) {
    const lookup = table.lookup;
    if (!lookup) return;
    try {
      const answer =
        action === 'more'
          ? await unwrap(
              api.POST('/api/widget/data-lookup/paginate', {
                body: {
                  conversation_id: conversationId,
                  rule_id: lookup.rule_id,
                  page: lookup.page + 1,
                },
              }),
            )
          : await unwrap(
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
    } catch (error) {
      failed(error);
    }
  }

  const tableActions: TableActions = {
    more: (table: TableBlock) => void lookupCall(table, 'more'),
    rowAction: (table, actionId, row) => void lookupCall(table, actionId, row),
  };

  const endChat = async () => {
    try {
      const answer = await unwrap(api.POST('/api/widget/end-chat', {}));
      dispatch({ type: 'conversation', conversationId: answer.data.id, status: 'closed' });
    } catch {
      addReply(t('error.generic'));
    }
  };

  const botAction = async (id: BotActionId, message: { id: number; conversation_id: number }) => {
    try {
      if (id === 'resolved') {
        await unwrap(
          api.POST('/api/widget/bot-resolved', {
            body: { conversation_id: message.conversation_id },
          }),
        );
        setBotAnswered((list) => [...list, message.id]);
        dispatch({
          type: 'conversation',
          conversationId: message.conversation_id,
          status: 'closed',
        });
      } else {
        await unwrap(
          api.POST('/api/widget/handoff', { body: { conversation_id: message.conversation_id } }),
        );
        // The team's handoff message arrives over the socket like any other message.
        setBotAnswered((list) => [...list, message.id]);
      }
    } catch (error) {
      failed(error);
    }
  };

  return { localReplies, addReply, botAnswered, tableActions, endChat, botAction };
}
