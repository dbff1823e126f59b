import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { type MessageRecord, MessagesService } from '../messages/messages.service';
import { RealtimeService } from '../realtime/realtime.service';
import { CATCH_UP_LIMIT } from './visitor-chat.service';
import {
  type ConversationFilter,
  type ConversationRow,
  ConversationsRepository,
} from './conversations.repository';
import { type ConversationRecord, toConversationRecord } from './conversation-record';

export type { ConversationRecord };

/** Larger than any message id (bigint): `before` it means the latest messages. */
const MAX_ID = '9223372036854775807';

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

  /** The conversation, for another feature (404 when it is not the organization's). */
  async get(organizationId: string, conversationId: string): Promise<ConversationRecord> {
    return toConversationRecord(await this.row(organizationId, conversationId));
  }

  /** The row, for this feature's own answers (404 when it is not the organization's). */
  private async row(organizationId: string, conversationId: string): Promise<ConversationRow> {
    const conversation = await this.conversations.find(
      this.dataSource.manager,
      organizationId,
      conversationId,
    );
    if (!conversation) throw AppError.notFound();
    return conversation;
  }

  /** The id of the visitor's newest started conversation, or the named one's; else undefined. */
  async startedForVisitor(
    organizationId: string,
    visitorId: string,
    conversationId?: string,
  ): Promise<string | undefined> {
    const started = await this.conversations.findForVisitor(
      this.dataSource.manager,
      organizationId,
      visitorId,
      conversationId,
    );
    return started?.id;
  }

  /** The conversation with every message, or with the latest `limit` (and whether earlier exist). */
  async withMessages(organizationId: string, conversationId: string, limit?: number) {
    const conversation = await this.row(organizationId, conversationId);
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
    await this.row(organizationId, conversationId);
    return this.messages.page(organizationId, conversationId, page);
  }

  /** Messages of one conversation after `afterId`, oldest first (an agent catching up). */
  async messagesAfter(
    organizationId: string,
    conversationId: string | undefined,
    afterId: string,
  ): Promise<MessageRecord[]> {
    if (conversationId !== undefined) await this.row(organizationId, conversationId);
    return this.messages.after(organizationId, { conversationId }, afterId, CATCH_UP_LIMIT);
  }

  /** The messages just before `beforeId` (scrolling back), oldest first. */
  async messagesBefore(
    organizationId: string,
    conversationId: string,
    beforeId: string,
  ): Promise<MessageRecord[]> {
    await this.row(organizationId, conversationId);
    return this.messages.before(organizationId, conversationId, beforeId, CATCH_UP_LIMIT);
  }

  /** The agents have read up to `messageId`; the visitor hears it. */
  async markRead(organizationId: string, conversationId: string, messageId: string) {
    const conversation = await this.row(organizationId, conversationId);
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
    const conversation = await this.row(organizationId, conversationId);
    this.realtime.toVisitor(conversation.visitor_id, 'typing', {
      conversation_id: Number(conversationId),
      sender_type: 'agent',
      is_typing: isTyping,
    });
  }
}
