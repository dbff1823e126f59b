import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { MessagesService } from '../messages/messages.service';
import type { MessageRow } from '../messages/messages.repository';
import { RealtimeService } from '../realtime/realtime.service';
import { CATCH_UP_LIMIT } from './visitor-chat.service';
import {
  type ConversationFilter,
  type ConversationRow,
  ConversationsRepository,
} from './conversations.repository';

/**
 * Conversations as agents and API keys read them (lists, one with its messages, catching up and
 * scrolling back), and the agents' read receipts and typing signals. The writes are
 * `AgentChatService`'s (agent side) and `VisitorChatService`'s (visitor side).
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesService,
    private readonly realtime: RealtimeService,
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
    const conversation = await this.conversations.find(
      this.dataSource.manager,
      organizationId,
      conversationId,
    );
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
}
