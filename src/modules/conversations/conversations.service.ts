import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import type { UserRow } from '../agents/agents.repository';
import { AgentsService } from '../agents/agents.service';
import type { Uploader } from '../attachments/attachments.service';
import { MessagesService } from '../messages/messages.service';
import type { MessageRow } from '../messages/messages.repository';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { conversationUpdate, messagePush } from './chat-pushes';
import { MissedChatsScheduler } from './missed-chats.scheduler';
import { CATCH_UP_LIMIT } from './visitor-chat.service';
import {
  type ConversationFilter,
  type ConversationRow,
  ConversationsRepository,
} from './conversations.repository';

/** Larger than any message id (bigint): `before` it means the latest messages. */
const MAX_ID = '9223372036854775807';

/** What an agent sends: text and/or attachments the uploader holds, as a reply or a private note. */
export interface ReplyContent {
  body?: string;
  attachmentIds?: number[];
  /** Who uploaded the attachments (the agent, or the API key for the public API). */
  uploader: Uploader;
  private?: boolean;
}

/** Who performs a write: an agent resolved from `agent_user_id` or the API key's creator. */
export interface Actor {
  organizationId: string;
  agentUserId?: number;
  keyCreatorId: string | null;
}

@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesService,
    private readonly agents: AgentsService,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly missedChats: MissedChatsScheduler,
    private readonly dataSource: DataSource,
  ) {}

  page(
    organizationId: string,
    filter: ConversationFilter,
    page: { perPage: number; offset: number },
  ) {
    return this.conversations.page(organizationId, filter, page);
  }

  async get(organizationId: string, conversationId: string): Promise<ConversationRow> {
    const conversation = await this.conversations.find(organizationId, conversationId);
    if (!conversation) throw AppError.notFound();
    return conversation;
  }

  /** The conversation with every message, or with the latest `limit` (and whether earlier exist). */
  async withMessages(organizationId: string, conversationId: string, limit?: number) {
    const conversation = await this.get(organizationId, conversationId);
    if (limit === undefined) {
      const messages = await this.messages.all(organizationId, conversationId);
      return { conversation, messages, earlier: false };
    }
    const rows = await this.messages.before(organizationId, conversationId, MAX_ID, limit + 1);
    return { conversation, messages: rows.slice(-limit), earlier: rows.length > limit };
  }

  async messagePage(
    organizationId: string,
    conversationId: string,
    page: { perPage: number; offset: number },
  ) {
    await this.get(organizationId, conversationId);
    return this.messages.page(organizationId, conversationId, page);
  }

  /**
   * An agent's reply: stored, the chat becomes active, `message.sent` is emitted, all at once.
   * A private note (`content.private`) is only stored and shown to the organization's agents: no
   * event, no status or first-response change, never pushed to the visitor; closed chats take
   * notes too.
   */
  async reply(actor: Actor, conversationId: string, content: ReplyContent) {
    const note = content.private === true;
    const { message, conversation, wasWaiting } = await this.asAgent(
      actor,
      conversationId,
      async (manager, conversation, agent) => {
        if (conversation.status === 'closed' && !note)
          throw AppError.conflict('The conversation is closed.');
        const message = await this.messages.create(manager, actor.organizationId, {
          conversationId,
          senderType: 'agent',
          senderId: agent.id,
          body: content.body ?? '',
          private: note,
          attachments: content.attachmentIds?.length
            ? { uploader: content.uploader, ids: content.attachmentIds }
            : undefined,
        });
        if (note) return { message, conversation, wasWaiting: false };
        await this.outbox.publish(manager, {
          type: 'message.sent',
          organizationId: actor.organizationId,
          payload: {
            organization_id: Number(actor.organizationId),
            conversation_id: Number(conversationId),
            site_id: Number(conversation.site_id),
            message: {
              id: Number(message.id),
              body: message.body,
              type: message.type,
              sender_id: Number(agent.id),
              attachments: message.attachments,
            },
          },
        });
        // Last: it may lock counter rows every first reply of the organization updates.
        const after = await this.conversations.recordAgentReply(
          manager,
          actor.organizationId,
          conversation,
          agent.id,
        );
        return { message, conversation: after, wasWaiting: conversation.status === 'waiting' };
      },
    );
    if (note) {
      this.realtime.toOrganization(actor.organizationId, 'message.created', messagePush(message));
      return message;
    }
    // Only a waiting chat has a timer to stop (an active one's was stopped by its first answer).
    if (wasWaiting) await this.missedChats.cancel(conversationId);
    const push = this.pushTarget(actor.organizationId, conversation);
    this.realtime.toBothSides(push, 'message.created', messagePush(message));
    this.realtime.toBothSides(push, 'conversation.updated', this.update(conversation));
    return message;
  }

  /** Closes once; closing a closed conversation answers its original `closed_at` and emits nothing. */
  async close(
    actor: Actor,
    conversationId: string,
  ): Promise<{ id: string; status: 'closed'; closedAt: Date }> {
    const result = await this.asAgent(
      actor,
      conversationId,
      async (manager, conversation, agent) => {
        if (conversation.status === 'closed' && conversation.closed_at) {
          return {
            id: conversationId,
            status: 'closed' as const,
            closedAt: conversation.closed_at,
            conversation,
            changed: false,
          };
        }
        const closedAt = await this.conversations.close(
          manager,
          actor.organizationId,
          conversationId,
          agent.id,
        );
        await this.outbox.publish(manager, {
          type: 'chat.closed',
          organizationId: actor.organizationId,
          payload: {
            organization_id: Number(actor.organizationId),
            conversation_id: Number(conversationId),
            site_id: Number(conversation.site_id),
            closed_at: new Date(closedAt).toISOString(),
            closed_by: Number(agent.id),
          },
        });
        return {
          id: conversationId,
          status: 'closed' as const,
          closedAt,
          conversation,
          changed: true,
        };
      },
    );
    if (result.changed) {
      this.realtime.toBothSides(
        this.pushTarget(actor.organizationId, result.conversation),
        'conversation.updated',
        conversationUpdate(
          conversationId,
          'closed',
          result.conversation.assigned_agent_id,
          result.closedAt,
        ),
      );
    }
    return { id: result.id, status: result.status, closedAt: result.closedAt };
  }

  /**
   * Assigns the conversation to `assigneeId` (an agent of the organization, else 422), or to the
   * acting agent; a waiting or missed chat becomes active and its missed-chat timer stops.
   */
  async assign(
    actor: Actor,
    conversationId: string,
    assigneeId?: number,
  ): Promise<ConversationRow> {
    let wasWaiting = false;
    const conversation = await this.asAgent(actor, conversationId, async (manager, row, agent) => {
      wasWaiting = row.status === 'waiting';
      const assignee =
        assigneeId === undefined
          ? agent
          : await this.agents.findMember(actor.organizationId, String(assigneeId));
      if (!assignee) {
        throw AppError.invalid(
          'agent_id',
          'The selected agent_id is not an agent of this organization.',
        );
      }
      if (row.status === 'closed') throw AppError.conflict('The conversation is closed.');
      await this.conversations.assign(manager, actor.organizationId, conversationId, assignee.id);
      if (row.assigned_agent_id !== assignee.id) {
        // An internal event (not one of the eleven webhook events): the change is on record.
        await this.outbox.publish(manager, {
          type: 'conversation.assigned',
          organizationId: actor.organizationId,
          payload: {
            organization_id: Number(actor.organizationId),
            conversation_id: Number(conversationId),
            site_id: Number(row.site_id),
            assigned_agent_id: Number(assignee.id),
            previous_agent_id:
              row.assigned_agent_id === null ? null : Number(row.assigned_agent_id),
          },
        });
      }
      const after = await this.conversations.find(actor.organizationId, conversationId, manager);
      if (!after) throw AppError.notFound();
      return after;
    });
    if (wasWaiting) await this.missedChats.cancel(conversationId);
    this.realtime.toBothSides(
      this.pushTarget(actor.organizationId, conversation),
      'conversation.updated',
      this.update(conversation),
    );
    return conversation;
  }

  /** Messages of one conversation after `afterId`, oldest first (an agent catching up). */
  async messagesAfter(
    organizationId: string,
    conversationId: string | undefined,
    afterId: string,
  ): Promise<MessageRow[]> {
    if (conversationId !== undefined) await this.get(organizationId, conversationId);
    return this.messages.after(organizationId, { conversationId }, afterId, CATCH_UP_LIMIT);
  }

  /** The messages just before `beforeId` (scrolling back), oldest first. */
  async messagesBefore(
    organizationId: string,
    conversationId: string,
    beforeId: string,
  ): Promise<MessageRow[]> {
    await this.get(organizationId, conversationId);
    return this.messages.before(organizationId, conversationId, beforeId, CATCH_UP_LIMIT);
  }

  /** The agents have read up to `messageId`; the visitor hears it. */
  async markRead(organizationId: string, conversationId: string, messageId: string) {
    const conversation = await this.get(organizationId, conversationId);
    const position = await this.conversations.markRead(
      organizationId,
      conversationId,
      'agent',
      messageId,
    );
    if (position === undefined) throw AppError.notFound();
    this.realtime.toVisitor(conversation.visitor_id, 'read', {
      conversation_id: Number(conversationId),
      reader: 'agent',
      message_id: Number(position),
    });
    return { conversationId, position };
  }

  /** Tells the visitor an agent is (or stopped) typing. */
  async typing(organizationId: string, conversationId: string, isTyping: boolean): Promise<void> {
    const conversation = await this.get(organizationId, conversationId);
    this.realtime.toVisitor(conversation.visitor_id, 'typing', {
      conversation_id: Number(conversationId),
      sender_type: 'agent',
      is_typing: isTyping,
    });
  }

  private pushTarget(organizationId: string, conversation: ConversationRow) {
    return { organizationId, visitorId: conversation.visitor_id, conversationId: conversation.id };
  }

  private update(conversation: ConversationRow) {
    return conversationUpdate(
      conversation.id,
      conversation.status,
      conversation.assigned_agent_id,
      conversation.closed_at,
    );
  }

  /**
   * Runs a write as the acting agent on the conversation, read and locked for the transaction:
   * the conversation first (404 before any 422), then the agent.
   */
  private async asAgent<T>(
    actor: Actor,
    conversationId: string,
    work: (manager: EntityManager, conversation: ConversationRow, agent: UserRow) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const conversation = await this.conversations.lock(
        manager,
        actor.organizationId,
        conversationId,
      );
      if (!conversation) throw AppError.notFound();
      const agent = await this.agents.resolveActor(
        actor.organizationId,
        actor.agentUserId,
        actor.keyCreatorId,
      );
      return work(manager, conversation, agent);
    });
  }
}
