import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import {
  type MessageAction,
  type MessageRecord,
  MessagesService,
} from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { ConversationsRepository, type ConversationStatus } from './conversations.repository';
import { OpenConversationsRepository } from './open-conversations.repository';
import { conversationUpdate, messagePush } from './chat-pushes';
import { conversationEvents } from './conversation-events';

/** How many messages one catch-up answer carries at most; the client asks again from the last. */
export const CATCH_UP_LIMIT = 200;

/**
 * The visitor's side of a chat (widget API and the `/widget` socket): the open conversation,
 * messages, ending the chat, read receipts and typing (reviews are
 * `ConversationReviewsService`'s). Every change commits with its
 * domain event; the live pushes follow the commit.
 */
@Injectable()
export class VisitorChatService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly openConversations: OpenConversationsRepository,
    private readonly messages: MessagesService,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  /** The visitor's open conversation (`init`), made unstarted when there is none. */
  ensureOpen(
    manager: EntityManager,
    visitor: VisitorPrincipal,
    locale: string | null,
  ): Promise<string> {
    return this.openConversations.ensureOpen(
      manager,
      visitor.organizationId,
      visitor.siteId,
      visitor.visitorId,
      locale,
    );
  }

  /**
   * A visitor message (text and/or attachments the visitor uploaded). The first one starts the
   * open conversation (`conversation.started`); after a close the visitor's next message opens a
   * new conversation (DESIGN section 5). At most
   * VISITOR_MESSAGE_LIMIT_PER_MINUTE per visitor, over HTTP and the socket together (429).
   */
  async send(
    visitor: VisitorPrincipal,
    content: { body?: string; attachmentIds?: number[] },
  ): Promise<{ conversationId: string; message: MessageRecord }> {
    await rateLimited(
      this.limits,
      `visitor-messages:${visitor.visitorId}`,
      this.config.env.VISITOR_MESSAGE_LIMIT_PER_MINUTE,
      60_000,
    );
    const organizationId = visitor.organizationId;
    const result = await this.dataSource.transaction(async (manager) => {
      if (await this.openConversations.consentMissing(manager, organizationId, visitor.visitorId)) {
        throw AppError.invalid(
          'consent',
          'The visitor must agree to the privacy notice (POST /api/widget/consent) before sending a message.',
          'consent_required',
        );
      }
      const open = await this.openConversations.lockOrMake(
        manager,
        organizationId,
        visitor.siteId,
        visitor.visitorId,
      );
      const started = !open.started_at;
      if (started) {
        await this.openConversations.start(manager, organizationId, open.id);
        const conversation = await this.conversations.find(manager, organizationId, open.id);
        if (!conversation) throw new Error('a started conversation is not visible');
        await this.outbox.publish(
          manager,
          conversationEvents.started(organizationId, conversation),
        );
      } else {
        await this.openConversations.recordVisitorMessage(manager, organizationId, open.id);
      }
      const message = await this.messages.create(manager, organizationId, {
        conversationId: open.id,
        senderType: 'visitor',
        senderId: null,
        body: content.body ?? '',
        attachments: content.attachmentIds?.length
          ? { uploader: { type: 'visitor', id: visitor.visitorId }, ids: content.attachmentIds }
          : undefined,
      });
      await this.outbox.publish(
        manager,
        conversationEvents.messageReceived(organizationId, open, message),
      );
      return { conversationId: open.id, message, started, status: open.status };
    });
    const push = {
      organizationId,
      visitorId: visitor.visitorId,
      conversationId: result.conversationId,
    };
    if (result.started) {
      this.realtime.toBothSides(
        push,
        'conversation.updated',
        conversationUpdate(result.conversationId, 'waiting', null, null),
      );
    }
    this.realtime.toBothSides(push, 'message.created', messagePush(result.message));
    return { conversationId: result.conversationId, message: result.message };
  }

  /**
   * The visitor's conversation, which must be open (the one `init` returned counts before the
   * first message): 404 when it is not the visitor's, 409 once it is closed. Data-lookup pages
   * and row actions answer inside one.
   */
  async requireOpen(visitor: VisitorPrincipal, conversationId: string): Promise<void> {
    const status = await this.conversations.statusForVisitor(
      visitor.organizationId,
      visitor.visitorId,
      conversationId,
    );
    if (!status) throw AppError.notFound();
    if (status === 'closed')
      throw AppError.conflict('The conversation is closed.', 'conversation_closed');
  }

  /**
   * A bot message (`sender_type` `bot`, a data-lookup reply) in the visitor's open conversation,
   * pushed to both sides after the commit like any message. 404 and 409 as for requireOpen.
   */
  async postBotMessage(
    visitor: VisitorPrincipal,
    conversationId: string,
    body: string,
    options: {
      actions?: MessageAction[];
      type?: string;
      /** Checked with the conversation locked: false posts nothing (undefined is answered). */
      stillWanted?: (manager: EntityManager) => Promise<boolean>;
    } = {},
  ): Promise<MessageRecord | undefined> {
    const organizationId = visitor.organizationId;
    const message = await this.dataSource.transaction(async (manager) => {
      const conversation = await this.conversations.lockForVisitor(
        manager,
        organizationId,
        visitor.visitorId,
        conversationId,
      );
      if (!conversation) throw AppError.notFound();
      if (conversation.status === 'closed') {
        throw AppError.conflict('The conversation is closed.', 'conversation_closed');
      }
      if (options.stillWanted && !(await options.stillWanted(manager))) return undefined;
      return this.messages.create(manager, organizationId, {
        conversationId,
        senderType: 'bot',
        senderId: null,
        body,
        actions: options.actions,
        type: options.type,
      });
    });
    if (!message) return undefined;
    this.realtime.toBothSides(
      { organizationId, visitorId: visitor.visitorId, conversationId },
      'message.created',
      messagePush(message),
    );
    return message;
  }

  /** Messages of the visitor's conversations after `afterId`, oldest first. */
  messagesAfter(visitor: VisitorPrincipal, afterId: string): Promise<MessageRecord[]> {
    return this.messages.after(
      visitor.organizationId,
      { visitorId: visitor.visitorId },
      afterId,
      CATCH_UP_LIMIT,
    );
  }

  /** Agent and bot messages the visitor has not read yet (past its read position). */
  unread(visitor: VisitorPrincipal): Promise<number> {
    return this.messages.unreadForVisitor(visitor.organizationId, visitor.visitorId);
  }

  /**
   * The visitor ends the chat: the open, started conversation closes (`chat.closed`, `closed_by`
   * null). Ending again answers the closed conversation as it is; 404 before any chat.
   */
  async end(
    visitor: VisitorPrincipal,
  ): Promise<{ id: string; status: ConversationStatus; closedAt: Date }> {
    const organizationId = visitor.organizationId;
    const result = await this.dataSource.transaction(async (manager) => {
      const open = await this.openConversations.lockOpenFor(
        manager,
        organizationId,
        visitor.visitorId,
      );
      if (!open?.started_at) {
        const latest = await this.conversations.findForVisitor(
          manager,
          organizationId,
          visitor.visitorId,
        );
        if (!latest?.closed_at) throw AppError.notFound();
        return { id: latest.id, status: latest.status, closedAt: latest.closed_at, closed: false };
      }
      const closedAt = await this.conversations.close(manager, organizationId, open.id, null);
      await this.outbox.publish(
        manager,
        conversationEvents.closed(organizationId, open, closedAt, null),
      );
      return { id: open.id, status: 'closed' as const, closedAt, closed: true };
    });
    if (result.closed) {
      this.realtime.toBothSides(
        { organizationId, visitorId: visitor.visitorId, conversationId: result.id },
        'conversation.updated',
        conversationUpdate(result.id, 'closed', null, result.closedAt),
      );
    }
    return { id: result.id, status: result.status, closedAt: result.closedAt };
  }

  /** The visitor has read up to `messageId` of one of its conversations; agents hear it. */
  async markRead(
    visitor: VisitorPrincipal,
    conversationId: string,
    messageId: string,
  ): Promise<string> {
    const conversation = await this.conversations.findForVisitor(
      this.dataSource.manager,
      visitor.organizationId,
      visitor.visitorId,
      conversationId,
    );
    if (!conversation) throw AppError.notFound();
    const position = await this.conversations.markRead(
      visitor.organizationId,
      conversationId,
      'visitor',
      messageId,
    );
    if (position === undefined) throw AppError.notFound();
    this.realtime.toOrganization(visitor.organizationId, 'read', {
      conversation_id: Number(conversationId),
      reader: 'visitor',
      message_id: Number(position),
    });
    return position;
  }

  /** Tells the agents the visitor is (or stopped) typing in its open conversation. */
  async typing(visitor: VisitorPrincipal, isTyping: boolean): Promise<void> {
    const conversation = await this.conversations.findForVisitor(
      this.dataSource.manager,
      visitor.organizationId,
      visitor.visitorId,
    );
    if (!conversation || conversation.status === 'closed') return;
    this.realtime.toOrganization(visitor.organizationId, 'typing', {
      conversation_id: Number(conversation.id),
      sender_type: 'visitor',
      is_typing: isTyping,
    });
  }
}
