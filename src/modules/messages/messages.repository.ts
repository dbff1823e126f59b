import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { handTyped, pageOf, query, sql } from '../../database/sql';
import type { AttachmentDto } from '../attachments/attachments.dto';

export type SenderType = 'visitor' | 'agent' | 'bot' | 'system';

/** A button under a message: what the widget posts back (`id`) and shows (`label`). */
export interface MessageAction {
  id: 'resolved' | 'handoff';
  label: string;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  sender_type: SenderType;
  sender_id: string | null;
  body: string;
  type: string;
  attachments: AttachmentDto[];
  private: boolean;
  /** A visitor's (or agent's) emailed message from another address than the one mailed. */
  sender_mismatch: boolean;
  /** Buttons under a bot message (the answer bot's "That helped" and "Talk to a person"). */
  actions: MessageAction[] | null;
  created_at: Date;
  /** An agent sender's name and avatar as they are now (what the widget shows); else null. */
  sender_name: string | null;
  sender_avatar_token: string | null;
}

@Injectable()
export class MessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    organizationId: string,
    message: {
      conversationId: string;
      senderType: SenderType;
      senderId: string | null;
      body: string;
      type?: string;
      attachments?: AttachmentDto[];
      private?: boolean;
      senderMismatch?: boolean;
      actions?: MessageAction[];
    },
  ): Promise<MessageRow> {
    const rows = await sql(
      manager,
      handTyped<MessageRow>`INSERT INTO messages
         (organization_id, conversation_id, sender_type, sender_id, body, type, attachments, private,
          sender_mismatch, actions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id, conversation_id, sender_type, sender_id, body, type, attachments, private,
         sender_mismatch, actions, created_at,
         (SELECT u.name FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_avatar_token`,
      [
        organizationId,
        message.conversationId,
        message.senderType,
        message.senderId,
        message.body,
        message.type ?? 'text',
        JSON.stringify(message.attachments ?? []),
        message.private ?? false,
        message.senderMismatch ?? false,
        message.actions ? JSON.stringify(message.actions) : null,
      ],
    );
    return rows[0];
  }

  /** Newest first, one page. */
  page(organizationId: string, conversationId: string, page: { perPage: number; offset: number }) {
    return pageOf(
      this.dataSource,
      {
        rows: handTyped<MessageRow>`SELECT id, conversation_id, sender_type, sender_id, body, type, attachments, private,
           sender_mismatch, actions, created_at,
           (SELECT u.name FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_name,
           (SELECT u.avatar_token FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_avatar_token
         FROM messages WHERE conversation_id = $1 AND organization_id = $2
         ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{
          total: string;
        }>`SELECT count(*) AS total FROM messages WHERE conversation_id = $1 AND organization_id = $2`,
      },
      [conversationId, organizationId],
      page,
    );
  }

  /** Every message of a conversation, oldest first. */
  all(organizationId: string, conversationId: string): Promise<MessageRow[]> {
    return sql(
      this.dataSource,
      handTyped<MessageRow>`SELECT id, conversation_id, sender_type, sender_id, body, type, attachments, private,
         sender_mismatch, actions, created_at,
         (SELECT u.name FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_avatar_token
       FROM messages WHERE conversation_id = $1 AND organization_id = $2 ORDER BY id`,
      [conversationId, organizationId],
    );
  }

  /**
   * Messages after `afterId`, oldest first, at most `limit`: of one conversation, of one
   * visitor's conversations (never a private note), or of the whole organization (an agent
   * catching up).
   */
  after(
    organizationId: string,
    scope: { conversationId?: string; visitorId?: string },
    afterId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    return sql(
      this.dataSource,
      scope.visitorId
        ? handTyped<MessageRow>`SELECT m.id, m.conversation_id, m.sender_type, m.sender_id, m.body, m.type, m.attachments,
         m.private, m.sender_mismatch, m.actions, m.created_at,
         (SELECT u.name FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_avatar_token
       FROM messages m
       JOIN conversations c ON c.id = m.conversation_id AND c.visitor_id = $5
       WHERE m.organization_id = $1 AND ($2::bigint IS NULL OR m.conversation_id = $2) AND m.id > $3
         AND NOT m.private
       ORDER BY m.id LIMIT $4`
        : handTyped<MessageRow>`SELECT m.id, m.conversation_id, m.sender_type, m.sender_id, m.body, m.type, m.attachments,
         m.private, m.sender_mismatch, m.actions, m.created_at,
         (SELECT u.name FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_avatar_token
       FROM messages m
       WHERE m.organization_id = $1 AND ($2::bigint IS NULL OR m.conversation_id = $2) AND m.id > $3
       ORDER BY m.id LIMIT $4`,
      [
        organizationId,
        scope.conversationId ?? null,
        afterId,
        limit,
        ...(scope.visitorId ? [scope.visitorId] : []),
      ],
    );
  }

  /**
   * The `limit` messages of a conversation just before `beforeId`, oldest first: an agent
   * scrolling back through a long history (messages_conversation_idx).
   */
  async before(
    organizationId: string,
    conversationId: string,
    beforeId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    const rows = await sql(
      this.dataSource,
      handTyped<MessageRow>`SELECT id, conversation_id, sender_type, sender_id, body, type, attachments, private,
         sender_mismatch, actions, created_at,
         (SELECT u.name FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE messages.sender_type = 'agent' AND u.id = messages.sender_id) AS sender_avatar_token
       FROM messages WHERE conversation_id = $1 AND organization_id = $2 AND id < $3
       ORDER BY id DESC LIMIT $4`,
      [conversationId, organizationId, beforeId, limit],
    );
    return rows.reverse();
  }

  /**
   * How many agent and bot messages (never a private note) of the visitor's conversations lie
   * past the visitor's read position in each: the widget's unread badge.
   */
  async unreadForVisitor(organizationId: string, visitorId: string): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{ unread: number }>`SELECT count(*)::integer AS unread FROM messages m
       JOIN conversations c ON c.id = m.conversation_id
       WHERE c.organization_id = $1 AND c.visitor_id = $2 AND m.organization_id = $1
         AND m.sender_type IN ('agent', 'bot') AND NOT m.private
         AND m.id > coalesce(c.visitor_read_message_id, 0)`,
      [organizationId, visitorId],
    );
    return rows[0]?.unread ?? 0;
  }

  /**
   * The agent and bot messages (never a private note) of one conversation past both `afterId`
   * and the visitor's read position, oldest first: what a visitor has not seen yet.
   */
  unseenByVisitor(
    organizationId: string,
    conversationId: string,
    afterId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    return sql(
      this.dataSource,
      handTyped<MessageRow>`SELECT m.id, m.conversation_id, m.sender_type, m.sender_id, m.body, m.type, m.attachments,
         m.private, m.sender_mismatch, m.actions, m.created_at,
         (SELECT u.name FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_name,
         (SELECT u.avatar_token FROM users u WHERE m.sender_type = 'agent' AND u.id = m.sender_id) AS sender_avatar_token
       FROM messages m
       JOIN conversations c ON c.id = m.conversation_id AND c.organization_id = $1
       WHERE m.organization_id = $1 AND m.conversation_id = $2
         AND m.sender_type IN ('agent', 'bot') AND NOT m.private
         AND m.id > greatest($3::bigint, coalesce(c.visitor_read_message_id, 0))
       ORDER BY m.id LIMIT $4`,
      [organizationId, conversationId, afterId, limit],
    );
  }
}
