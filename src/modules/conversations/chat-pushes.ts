import { toMessageDto } from '../messages/messages.dto';
import type { MessageRow } from '../messages/messages.repository';
import type { ConversationStatus } from './conversations.repository';

/** The `message.created` push (and each item of a catch-up): the message and its conversation. */
export function messagePush(message: MessageRow) {
  return { conversation_id: Number(message.conversation_id), ...toMessageDto(message) };
}

/** The `conversation.updated` push. */
export function conversationUpdate(
  conversationId: string,
  status: ConversationStatus,
  assignedAgentId: string | null,
  closedAt: Date | null,
) {
  return {
    conversation_id: Number(conversationId),
    status,
    assigned_agent_id: assignedAgentId === null ? null : Number(assignedAgentId),
    closed_at: closedAt ? new Date(closedAt).toISOString() : null,
  };
}
