import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import type { UserRow } from '../agents/agents.repository';
import { AgentsService } from '../agents/agents.service';
import { MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import {
  type ConversationFilter,
  type ConversationRow,
  ConversationsRepository,
} from './conversations.repository';

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

  async withMessages(organizationId: string, conversationId: string) {
    const conversation = await this.get(organizationId, conversationId);
    return { conversation, messages: await this.messages.all(organizationId, conversationId) };
  }

  async messagePage(
    organizationId: string,
    conversationId: string,
    page: { perPage: number; offset: number },
  ) {
    await this.get(organizationId, conversationId);
    return this.messages.page(organizationId, conversationId, page);
  }

  /** An agent's reply: stored, the chat becomes active, `message.sent` is emitted, all at once. */
  async reply(actor: Actor, conversationId: string, body: string) {
    return this.asAgent(actor, conversationId, async (manager, conversation, agent) => {
      if (conversation.status === 'closed') throw AppError.conflict('The conversation is closed.');
      const message = await this.messages.create(manager, actor.organizationId, {
        conversationId,
        senderType: 'agent',
        senderId: agent.id,
        body,
      });
      await this.conversations.recordAgentReply(manager, conversationId, agent.id);
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
          },
        },
      });
      return message;
    });
  }

  /** Closes once; closing a closed conversation answers its original `closed_at` and emits nothing. */
  async close(
    actor: Actor,
    conversationId: string,
  ): Promise<{ id: string; status: 'closed'; closedAt: Date }> {
    return this.asAgent(actor, conversationId, async (manager, conversation, agent) => {
      if (conversation.status === 'closed' && conversation.closed_at) {
        return { id: conversationId, status: 'closed' as const, closedAt: conversation.closed_at };
      }
      const closedAt = await this.conversations.close(manager, conversationId, agent.id);
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
      return { id: conversationId, status: 'closed' as const, closedAt };
    });
  }

  /**
   * Runs a write as the acting agent on the locked conversation. The conversation is checked
   * first (404 before any 422), then the agent, then the row is locked for the transaction.
   */
  private async asAgent<T>(
    actor: Actor,
    conversationId: string,
    work: (manager: EntityManager, conversation: ConversationRow, agent: UserRow) => Promise<T>,
  ): Promise<T> {
    await this.get(actor.organizationId, conversationId);
    const agent = await this.agents.resolveActor(
      actor.organizationId,
      actor.agentUserId,
      actor.keyCreatorId,
    );
    return this.dataSource.transaction(async (manager) => {
      const conversation = await this.conversations.lock(
        manager,
        actor.organizationId,
        conversationId,
      );
      if (!conversation) throw AppError.notFound();
      return work(manager, conversation, agent);
    });
  }
}
