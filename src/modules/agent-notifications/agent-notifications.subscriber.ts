import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { ConversationsService } from '../conversations/conversations.service';
import { MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { TicketsService } from '../tickets/tickets.service';
import { AgentNotificationsService } from './agent-notifications.service';

/**
 * What agents are told of by mail (DESIGN section 9), from the committed domain events:
 * - `conversation.started` while no agent is online: every agent;
 * - `conversation.assigned`: the new assignee;
 * - `message.received` (a visitor's message): the conversation's assignee;
 * - `chat.missed`: the assignee, else the owners and admins;
 * - `ticket.assigned`: the new assignee;
 * - `ticket.comment_added` by the customer (or the visitor): the ticket's assignee.
 * Each only to agents who want that kind and are not online (AgentNotificationsService).
 */
@Injectable()
export class AgentNotificationsSubscriber implements OnModuleInit {
  constructor(
    private readonly notifications: AgentNotificationsService,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly tickets: TicketsService,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    const consumer = 'AgentNotificationsSubscriber';
    this.outbox.subscribe('conversation.started', consumer, async (event) => {
      const organizationId = String(event.organizationId);
      if (await this.agents.anyOnline(organizationId)) return;
      const conversationId = String(event.payload.conversation.id);
      const first = await this.messages.page(organizationId, conversationId, {
        perPage: 1,
        offset: 0,
      });
      await this.notifications.notify(
        organizationId,
        'new_conversation',
        { conversationId },
        {},
        first.rows[0]?.body ?? '',
      );
    });
    this.outbox.subscribe('conversation.assigned', consumer, async (event) => {
      const agentId = event.payload.assigned_agent_id;
      if (agentId === null) return;
      await this.notifications.notify(
        String(event.organizationId),
        'conversation_assigned',
        { conversationId: String(event.payload.conversation_id) },
        { userIds: [String(agentId)] },
      );
    });
    this.outbox.subscribe('message.received', consumer, async (event) => {
      const organizationId = String(event.organizationId);
      const conversationId = String(event.payload.conversation_id);
      const conversation = await this.conversation(organizationId, conversationId);
      if (!conversation?.assignedAgentId) return;
      await this.notifications.notify(
        organizationId,
        'visitor_reply',
        { conversationId },
        { userIds: [conversation.assignedAgentId] },
        event.payload.message.body,
      );
    });
    this.outbox.subscribe('chat.missed', consumer, async (event) => {
      const organizationId = String(event.organizationId);
      const conversationId = String(event.payload.conversation_id);
      const conversation = await this.conversation(organizationId, conversationId);
      if (!conversation) return;
      await this.notifications.notify(
        organizationId,
        'missed_chat',
        { conversationId },
        conversation.assignedAgentId
          ? { userIds: [conversation.assignedAgentId] }
          : { roles: ['owner', 'admin'] },
      );
    });
    this.outbox.subscribe('ticket.assigned', consumer, async (event) => {
      const agentId = event.payload.assigned_agent_id;
      if (agentId === null) return;
      await this.notifications.notify(
        String(event.organizationId),
        'ticket_assigned',
        { ticketId: String(event.payload.ticket_id) },
        { userIds: [String(agentId)] },
      );
    });
    this.outbox.subscribe('ticket.comment_added', consumer, async (event) => {
      const organizationId = String(event.organizationId);
      const ticketId = String(event.payload.ticket_id);
      const { ticket, comments } = await this.tickets.get(organizationId, ticketId);
      const comment = comments.find((row) => row.id === String(event.payload.comment.id));
      if (
        !comment ||
        comment.isInternal ||
        (comment.authorType !== 'customer' && comment.authorType !== 'visitor') ||
        !ticket.assignedAgentId
      ) {
        return;
      }
      await this.notifications.notify(
        organizationId,
        'customer_reply',
        { ticketId },
        { userIds: [ticket.assignedAgentId] },
        comment.body,
      );
    });
  }

  private async conversation(organizationId: string, conversationId: string) {
    try {
      return await this.conversations.get(organizationId, conversationId);
    } catch (error) {
      if (error instanceof AppError) return undefined;
      throw error;
    }
  }
}
