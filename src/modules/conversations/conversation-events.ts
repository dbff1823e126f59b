import { domainEvent } from '../outbox/domain-event';
import type { MessageRecord } from '../messages/messages.service';
import type { ConversationRow } from './conversations.repository';

/** The conversation's ids every conversation event names. */
type ConversationRef = Pick<ConversationRow, 'id' | 'site_id'>;

const messageOf = (message: MessageRecord) => ({
  id: Number(message.id),
  body: message.body,
  type: message.type,
  attachments: message.attachments,
});

/**
 * The conversation events, built in one place so every source (agent desk, public API, widget,
 * socket, timers, automatic assignment) emits the same payload.
 */
export const conversationEvents = {
  /** The visitor's first message started the conversation. */
  started: (organizationId: string, conversation: ConversationRow) =>
    domainEvent('conversation.started', organizationId, {
      conversation: {
        id: Number(conversation.id),
        site_id: Number(conversation.site_id),
        visitor_id: Number(conversation.visitor_id),
        status: conversation.status,
        started_at: new Date(conversation.started_at).toISOString(),
      },
      visitor: {
        id: Number(conversation.visitor_id),
        name: conversation.visitor_name,
        email: conversation.visitor_email,
      },
    }),

  messageReceived: (
    organizationId: string,
    conversation: ConversationRef,
    message: MessageRecord,
  ) =>
    domainEvent('message.received', organizationId, {
      conversation_id: Number(conversation.id),
      site_id: Number(conversation.site_id),
      message: messageOf(message),
    }),

  /** An agent's reply (private notes are not announced). */
  messageSent: (
    organizationId: string,
    conversation: ConversationRef,
    message: MessageRecord,
    agentId: string,
  ) =>
    domainEvent('message.sent', organizationId, {
      conversation_id: Number(conversation.id),
      site_id: Number(conversation.site_id),
      message: { ...messageOf(message), sender_id: Number(agentId) },
    }),

  missed: (
    organizationId: string,
    conversationId: string,
    conversation: Pick<ConversationRow, 'site_id' | 'visitor_id'>,
  ) =>
    domainEvent('chat.missed', organizationId, {
      conversation_id: Number(conversationId),
      site_id: Number(conversation.site_id),
      visitor_id: Number(conversation.visitor_id),
    }),

  /** Closed by an agent (`closedBy`), or ended by the visitor (null). */
  closed: (
    organizationId: string,
    conversation: ConversationRef,
    closedAt: Date,
    closedBy: string | null,
  ) =>
    domainEvent('chat.closed', organizationId, {
      conversation_id: Number(conversation.id),
      site_id: Number(conversation.site_id),
      closed_at: new Date(closedAt).toISOString(),
      closed_by: closedBy === null ? null : Number(closedBy),
    }),

  reviewSubmitted: (
    organizationId: string,
    conversationId: string,
    review: { rating: number; comment: string | null },
  ) =>
    domainEvent('review.submitted', organizationId, {
      conversation_id: Number(conversationId),
      rating: review.rating,
      comment: review.comment,
    }),

  /** Internal: an agent took the chat, by hand or by automatic assignment (`auto`). */
  assigned: (
    organizationId: string,
    conversation: ConversationRef,
    agentId: string | null,
    previousAgentId: string | null,
    options: { auto?: boolean } = {},
  ) =>
    domainEvent('conversation.assigned', organizationId, {
      conversation_id: Number(conversation.id),
      site_id: Number(conversation.site_id),
      assigned_agent_id: agentId === null ? null : Number(agentId),
      previous_agent_id: previousAgentId === null ? null : Number(previousAgentId),
      ...(options.auto ? { auto: true as const } : {}),
    }),
};
