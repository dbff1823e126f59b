import { avatarUrl } from '../agents/agents.dto';
import { toMessageDto } from '../messages/messages.dto';
import type { MessageRecord } from '../messages/messages.service';
import type { ChatMessagePush, ConversationUpdatePush } from '../realtime/socket-events';
import type { ConversationStatus } from './conversations.repository';

/**
 * The `message.created` push (and each item of a catch-up): the message and its conversation, and
 * for an agent's message the agent's name and avatar (the widget shows who answers, issue 26).
 */
export function messagePush(message: MessageRecord): ChatMessagePush {
  return {
    conversation_id: Number(message.conversationId),
    ...toMessageDto(message),
    sender_name: message.senderType === 'agent' ? message.senderName : null,
    sender_avatar_url: message.senderType === 'agent' ? avatarUrl(message.senderAvatarToken) : null,
    actions: message.actions ?? [],
  };
}

/** The `conversation.updated` push. */
export function conversationUpdate(
  conversationId: string,
  status: ConversationStatus,
  assignedAgentId: string | null,
  closedAt: Date | null,
): ConversationUpdatePush {
  return {
    conversation_id: Number(conversationId),
    status,
    assigned_agent_id: assignedAgentId === null ? null : Number(assignedAgentId),
    closed_at: closedAt ? new Date(closedAt).toISOString() : null,
  };
}
