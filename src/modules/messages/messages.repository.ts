import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { pageOf, sql } from '../../database/sql';
import type { AttachmentDto } from '../attachments/attachments.dto';

export type SenderType = 'visitor' | 'agent' | 'bot' | 'system';

export interface MessageRow {
  id: string;
  conversation_id: string;
  sender_type: SenderType;
  sender_id: string | null;
  body: string;
  type: string;
  attachments: AttachmentDto[];
  private: boolean;
  created_at: Date;
}

const COLUMNS =
  'id, conversation_id, sender_type, sender_id, body, type, attachments, private, created_at';

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
    },
  ): Promise<MessageRow> {
    const rows = await sql<MessageRow>(
      manager,
      `INSERT INTO messages
         (organization_id, conversation_id, sender_type, sender_id, body, type, attachments, private)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        organizationId,
        message.conversationId,
        message.senderType,
        message.senderId,
        message.body,
        message.type ?? 'text',
        JSON.stringify(message.attachments ?? []),
        message.private ?? false,
      ],
    );
    return rows[0];
  }

  /** Newest first, one page. */
  page(organizationId: string, conversationId: string, page: { perPage: number; offset: number }) {
    return pageOf<MessageRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'messages',
        where: 'conversation_id = $1 AND organization_id = $2',
        parameters: [conversationId, organizationId],
        orderBy: 'id DESC',
      },
      page,
    );
  }

  /** Every message of a conversation, oldest first. */
  all(organizationId: string, conversationId: string): Promise<MessageRow[]> {
    return sql<MessageRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM messages WHERE conversation_id = $1 AND organization_id = $2 ORDER BY id`,
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
    const columns = COLUMNS.split(', ')
      .map((column) => `m.${column}`)
      .join(', ');
    return sql<MessageRow>(
      this.dataSource,
      `SELECT ${columns} FROM messages m
       ${scope.visitorId ? 'JOIN conversations c ON c.id = m.conversation_id AND c.visitor_id = $5' : ''}
       WHERE m.organization_id = $1 AND ($2::bigint IS NULL OR m.conversation_id = $2) AND m.id > $3
         ${scope.visitorId ? 'AND NOT m.private' : ''}
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
    const rows = await sql<MessageRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM messages WHERE conversation_id = $1 AND organization_id = $2 AND id < $3
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
    const rows = await sql<{ unread: number }>(
      this.dataSource,
      `SELECT count(*)::integer AS unread FROM messages m
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
    return sql<MessageRow>(
      this.dataSource,
      `SELECT ${COLUMNS.split(', ')
        .map((column) => `m.${column}`)
        .join(', ')} FROM messages m
       JOIN conversations c ON c.id = m.conversation_id AND c.organization_id = $1
       WHERE m.organization_id = $1 AND m.conversation_id = $2
         AND m.sender_type IN ('agent', 'bot') AND NOT m.private
         AND m.id > greatest($3::bigint, coalesce(c.visitor_read_message_id, 0))
       ORDER BY m.id LIMIT $4`,
      [organizationId, conversationId, afterId, limit],
    );
  }
}
