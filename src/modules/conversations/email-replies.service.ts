import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import {
  afterCommit,
  inTransaction,
  type SharedTransaction,
} from '../../database/shared-transaction';
import { type MessageRecord, MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { AgentChatService } from './agent-chat.service';
import { conversationUpdate, messagePush } from './chat-pushes';
import { conversationEvents } from './conversation-events';
import { ConversationsRepository, type ConversationStatus } from './conversations.repository';
import { OpenConversationsRepository } from './open-conversations.repository';

/**
 * Answers by email in a conversation. A visitor's answer to a conversation mail (DESIGN section
 * 9): a visitor message (`message.received`, live on both sides). An answer to a closed conversation reopens it as
 * `waiting`, unless the visitor has another conversation open by now: then the answer goes there
 * (the unique open conversation per visitor stays unique, and the agents see it where the
 * visitor is talking).
 */
@Injectable()
export class EmailRepliesService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly openConversations: OpenConversationsRepository,
    private readonly messages: MessagesService,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly agentChat: AgentChatService,
    private readonly dataSource: DataSource,
  ) {}

  async receive(
    organizationId: string,
    conversationId: string,
    body: string,
    extra: { attachmentIds?: number[]; senderMismatch?: boolean } = {},
    tx?: SharedTransaction,
  ): Promise<{ conversationId: string; message: MessageRecord; reopened: boolean }> {
    const result = await inTransaction(this.dataSource, tx, async (manager) => {
      const conversation = await this.conversations.lock(manager, organizationId, conversationId);
      if (!conversation) throw AppError.notFound();
      let target = conversation.id;
      let status: ConversationStatus = conversation.status;
      let changed = false;
      let started = false;
      if (conversation.status === 'closed') {
        const open = await this.openConversations.lockOpenFor(
          manager,
          organizationId,
          conversation.visitor_id,
        );
        if (!open) {
          await this.conversations.reopenWaiting(manager, organizationId, conversation.id);
          status = 'waiting';
          changed = true;
        } else {
          target = open.id;
          status = open.status;
          if (!open.started_at) {
            await this.openConversations.start(manager, organizationId, open.id);
            status = 'waiting';
            changed = true;
            started = true;
          }
        }
      }
      if (started) {
        const row = await this.conversations.find(manager, organizationId, target);
        if (!row) throw new Error('a started conversation is not visible');
        await this.outbox.publish(manager, conversationEvents.started(organizationId, row));
      } else if (!changed) {
        await this.openConversations.recordVisitorMessage(manager, organizationId, target);
      }
      const message = await this.messages.create(manager, organizationId, {
        conversationId: target,
        senderType: 'visitor',
        senderId: null,
        body,
        senderMismatch: extra.senderMismatch,
        attachments: extra.attachmentIds?.length
          ? { uploader: { type: 'visitor', id: conversation.visitor_id }, ids: extra.attachmentIds }
          : undefined,
      });
      await this.outbox.publish(
        manager,
        conversationEvents.messageReceived(
          organizationId,
          { id: target, site_id: conversation.site_id },
          message,
        ),
      );
      return {
        target,
        message,
        changed,
        status,
        assigned: conversation.assigned_agent_id,
        visitorId: conversation.visitor_id,
      };
    });
    const push = {
      organizationId,
      visitorId: result.visitorId,
      conversationId: result.target,
    };
    await afterCommit(tx, () => this.announce(push, conversationId, result));
    return { conversationId: result.target, message: result.message, reopened: result.changed };
  }

  /** The answer, live on both sides (and the conversation's new status when it changed). */
  private announce(
    push: { organizationId: string; visitorId: string; conversationId: string },
    conversationId: string,
    result: {
      target: string;
      message: MessageRecord;
      changed: boolean;
      status: ConversationStatus;
      assigned: string | null;
    },
  ): void {
    if (result.changed) {
      this.realtime.toBothSides(
        push,
        'conversation.updated',
        conversationUpdate(
          result.target,
          result.status,
          result.target === conversationId ? result.assigned : null,
          null,
        ),
      );
    }
    this.realtime.toBothSides(push, 'message.created', messagePush(result.message));
  }

  /**
   * An agent's answer by mail to a notification about the conversation: a reply as that agent,
   * as from the desk (`message.sent`, the chat becomes active). A closed conversation is a 409.
   */
  async agentAnswer(
    organizationId: string,
    conversationId: string,
    agentId: string,
    content: { body: string; attachmentIds?: number[]; senderMismatch?: boolean },
    tx?: SharedTransaction,
  ): Promise<MessageRecord> {
    return this.agentChat.reply(
      { organizationId, agentUserId: Number(agentId), keyCreatorId: null },
      conversationId,
      {
        body: content.body,
        attachmentIds: content.attachmentIds,
        uploader: { type: 'agent', id: agentId },
        senderMismatch: content.senderMismatch,
      },
      tx,
    );
  }
}
