import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import type { Uploader } from '../attachments/attachments.service';
import { type MessageRecord, MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { conversationUpdate, messagePush } from './chat-pushes';
import { conversationEvents } from './conversation-events';
import { type ConversationRow, ConversationsRepository } from './conversations.repository';
import { type ConversationRecord, toConversationRecord } from './conversation-record';
import { MissedChatsScheduler } from './missed-chats.scheduler';
import {
  afterCommit,
  inOneTransaction,
  inTransaction,
  type SharedTransaction,
} from '../../database/shared-transaction';

/** The acting agent as the agents feature answers it. */
type Member = Awaited<ReturnType<AgentsService['resolveActor']>>;

/** What an agent sends: text and/or attachments the uploader holds, as a reply or a private note. */
export interface ReplyContent {
  body?: string;
  attachmentIds?: number[];
  /** Who uploaded the attachments (the agent, or the API key for the public API). */
  uploader: Uploader;
  private?: boolean;
  /** Written by mail (a notification's answer) from another address than the agent's. */
  senderMismatch?: boolean;
}

/** Who performs a write: an agent resolved from `agent_user_id` or the API key's creator. */
export interface Actor {
  organizationId: string;
  agentUserId?: number;
  keyCreatorId: string | null;
}

/**
 * The agent's side of a chat (agent desk and public API): replies and notes, closing and
 * assigning. Each write runs as the acting agent on the locked conversation and commits with its
 * domain event; the live pushes to both sides follow the commit.
 */
@Injectable()
export class AgentChatService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesService,
    private readonly agents: AgentsService,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly missedChats: MissedChatsScheduler,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * An agent's reply: stored, the chat becomes active, `message.sent` is emitted, all at once.
   * A private note (`content.private`) is only stored and shown to the organization's agents: no
   * event, no status or first-response change, never pushed to the visitor; closed chats take
   * notes too.
   */
  async reply(
    actor: Actor,
    conversationId: string,
    content: ReplyContent,
    tx?: SharedTransaction,
  ): Promise<MessageRecord> {
    const note = content.private === true;
    const { message, conversation, wasWaiting } = await this.asAgent(
      actor,
      conversationId,
      async (manager, conversation, agent) => {
        if (conversation.status === 'closed' && !note)
          throw AppError.conflict('The conversation is closed.', 'conversation_closed');
        const message = await this.messages.create(manager, actor.organizationId, {
          conversationId,
          senderType: 'agent',
          senderId: agent.id,
          body: content.body ?? '',
          private: note,
          senderMismatch: content.senderMismatch,
          attachments: content.attachmentIds?.length
            ? { uploader: content.uploader, ids: content.attachmentIds }
            : undefined,
        });
        if (note) return { message, conversation, wasWaiting: false };
        await this.outbox.publish(
          manager,
          conversationEvents.messageSent(actor.organizationId, conversation, message, agent.id),
        );
        // Last: it may lock counter rows every first reply of the organization updates.
        const after = await this.conversations.recordAgentReply(
          manager,
          actor.organizationId,
          conversation,
          agent.id,
        );
        return { message, conversation: after, wasWaiting: conversation.status === 'waiting' };
      },
      tx,
    );
    await afterCommit(tx, async () => {
      if (note) {
        this.realtime.toOrganization(actor.organizationId, 'message.created', messagePush(message));
        return;
      }
      // Only a waiting chat has a timer to stop (an active one's was stopped by its first answer).
      if (wasWaiting) await this.missedChats.cancel(conversationId);
      const push = this.pushTarget(actor.organizationId, conversation);
      this.realtime.toBothSides(push, 'message.created', messagePush(message));
      this.realtime.toBothSides(push, 'conversation.updated', this.update(conversation));
    });
    return message;
  }

  /** Closes once; closing a closed conversation answers its original `closed_at` and emits nothing. */
  async close(
    actor: Actor,
    conversationId: string,
    tx?: SharedTransaction,
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
        await this.outbox.publish(
          manager,
          conversationEvents.closed(actor.organizationId, conversation, closedAt, agent.id),
        );
        return {
          id: conversationId,
          status: 'closed' as const,
          closedAt,
          conversation,
          changed: true,
        };
      },
      tx,
    );
    await afterCommit(tx, () => {
      if (!result.changed) return;
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
    });
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
    handOverNote?: string,
    tx?: SharedTransaction,
  ): Promise<ConversationRecord> {
    let wasWaiting = false;
    let note: MessageRecord | undefined;
    const conversation = await this.asAgent(
      actor,
      conversationId,
      async (manager, row, agent) => {
        wasWaiting = row.status === 'waiting';
        const assignee =
          assigneeId === undefined
            ? agent
            : await this.agents.findMember(actor.organizationId, String(assigneeId));
        if (!assignee) {
          throw AppError.invalid(
            'agent_id',
            'The selected agent_id is not an agent of this organization.',
            'agent_not_in_organization',
          );
        }
        if (row.status === 'closed')
          throw AppError.conflict('The conversation is closed.', 'conversation_closed');
        await this.conversations.assign(manager, actor.organizationId, conversationId, assignee.id);
        if (row.assigned_agent_id !== assignee.id) {
          // An internal event (not one of the twelve webhook events): the change is on record.
          await this.outbox.publish(
            manager,
            conversationEvents.assigned(
              actor.organizationId,
              row,
              assignee.id,
              row.assigned_agent_id,
            ),
          );
        }
        // A hand-over: the note for the new assignee is written in the same transaction.
        if (handOverNote !== undefined) {
          note = await this.messages.create(manager, actor.organizationId, {
            conversationId,
            senderType: 'agent',
            senderId: agent.id,
            body: handOverNote,
            private: true,
          });
        }
        const after = await this.conversations.find(manager, actor.organizationId, conversationId);
        if (!after) throw AppError.notFound();
        return after;
      },
      tx,
    );
    await afterCommit(tx, async () => {
      if (note) {
        this.realtime.toOrganization(actor.organizationId, 'message.created', messagePush(note));
      }
      if (wasWaiting) await this.missedChats.cancel(conversationId);
      this.realtime.toBothSides(
        this.pushTarget(actor.organizationId, conversation),
        'conversation.updated',
        this.update(conversation),
      );
    });
    return toConversationRecord(conversation);
  }

  /**
   * Opens a closed conversation again: `active`, held by its assignee or else by the agent who
   * reopened it; pushed to both sides (the visitor can write in it again). One that is not
   * closed is answered unchanged; a 409 when the visitor has started another conversation since.
   */
  async reopen(
    actor: Actor,
    conversationId: string,
    tx?: SharedTransaction,
  ): Promise<ConversationRecord> {
    const conversation = await this.asAgent(
      actor,
      conversationId,
      async (manager, row, agent) => {
        if (row.status !== 'closed') return row;
        if (!(await this.conversations.reopen(manager, actor.organizationId, row, agent.id))) {
          throw AppError.conflict(
            'The visitor has started another conversation since.',
            'conversation_superseded',
          );
        }
        const after = await this.conversations.find(manager, actor.organizationId, conversationId);
        if (!after) throw AppError.notFound();
        return after;
      },
      tx,
    );
    await afterCommit(tx, () =>
      this.realtime.toBothSides(
        this.pushTarget(actor.organizationId, conversation),
        'conversation.updated',
        this.update(conversation),
      ),
    );
    return toConversationRecord(conversation);
  }

  /**
   * Takes the conversation from whoever holds it (it shows under Unassigned again, its status
   * unchanged); a closed conversation is a 409, one nobody holds stays as it is.
   */
  async unassign(
    actor: Actor,
    conversationId: string,
    tx?: SharedTransaction,
  ): Promise<ConversationRecord> {
    const conversation = await this.asAgent(
      actor,
      conversationId,
      async (manager, row) => {
        if (row.status === 'closed')
          throw AppError.conflict('The conversation is closed.', 'conversation_closed');
        if (row.assigned_agent_id === null) return row;
        await this.conversations.unassign(manager, actor.organizationId, conversationId);
        await this.outbox.publish(
          manager,
          conversationEvents.assigned(actor.organizationId, row, null, row.assigned_agent_id),
        );
        return { ...row, assigned_agent_id: null };
      },
      tx,
    );
    await afterCommit(tx, () =>
      this.realtime.toBothSides(
        this.pushTarget(actor.organizationId, conversation),
        'conversation.updated',
        this.update(conversation),
      ),
    );
    return toConversationRecord(conversation);
  }

  /**
   * Snoozes the conversation until `until` (out of the open views until then, or until the
   * visitor writes), or wakes it (`null`). The agents hear of it; the visitor never does.
   */
  async snooze(
    actor: Actor,
    conversationId: string,
    until: Date | null,
    tx?: SharedTransaction,
  ): Promise<ConversationRecord> {
    const conversation = await this.asAgent(
      actor,
      conversationId,
      async (manager, row) => {
        if (until !== null && row.status === 'closed') {
          throw AppError.conflict('The conversation is closed.', 'conversation_closed');
        }
        await this.conversations.snooze(manager, actor.organizationId, conversationId, until);
        return { ...row, snoozed_until: until };
      },
      tx,
    );
    await afterCommit(tx, () =>
      this.realtime.toOrganization(actor.organizationId, 'conversation.updated', {
        ...this.update(conversation),
        snoozed_until: until ? until.toISOString() : null,
      }),
    );
    return toConversationRecord(conversation);
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
    work: (manager: EntityManager, conversation: ConversationRow, agent: Member) => Promise<T>,
    tx?: SharedTransaction,
  ): Promise<T> {
    const run = async (manager: EntityManager) => {
      const conversation = await this.conversations.lock(
        manager,
        actor.organizationId,
        conversationId,
      );
      if (!conversation) throw AppError.notFound();
      // On the transaction's own connection: a second one from the pool, while this one is held,
      // starves the pool under concurrent replies (bench:api at 50 connections waited 8 s).
      const agent = await this.agents.resolveActor(
        manager,
        actor.organizationId,
        actor.agentUserId,
        actor.keyCreatorId,
      );
      return work(manager, conversation, agent);
    };
    return inTransaction(this.dataSource, tx, run);
  }

  /**
   * Locks the conversation for a shared transaction as the acting agent (404 when it is not the
   * organization's): what the later writes of a macro, labels included, rely on.
   */
  async hold(actor: Actor, conversationId: string, tx: SharedTransaction): Promise<void> {
    await this.asAgent(actor, conversationId, (_manager, row) => Promise.resolve(row), tx);
  }

  /** Now, or (inside a shared transaction) once it has committed. */

  /**
   * Runs several writes in one transaction (each given `tx`): all of them commit or none does,
   * and their pushes follow the commit, in order.
   */
  inOneTransaction<T>(work: (tx: SharedTransaction) => Promise<T>): Promise<T> {
    return inOneTransaction(this.dataSource, work);
  }
}
