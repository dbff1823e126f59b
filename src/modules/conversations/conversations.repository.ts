import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';

export type ConversationStatus = 'waiting' | 'active' | 'closed' | 'missed';
export const CONVERSATION_STATUSES: readonly ConversationStatus[] = [
  'waiting',
  'active',
  'closed',
  'missed',
];

export interface ConversationRow {
  id: string;
  site_id: string;
  visitor_id: string;
  status: ConversationStatus;
  type: string;
  locale: string | null;
  assigned_agent_id: string | null;
  started_at: Date;
  closed_at: Date | null;
  closed_by_user_id: string | null;
  rating: number | null;
  review_comment: string | null;
  reviewed_at: Date | null;
  /** Out of the open views until then (or until the visitor writes); null when not snoozed. */
  snoozed_until: Date | null;
  visitor_name: string | null;
  visitor_email: string | null;
}

export interface ConversationFilter {
  status?: ConversationStatus;
  siteId?: number;
  /** An agent's id, or 0 for the unassigned ones. */
  assignedAgentId?: number;
}

// Lists and reads see only the conversations a first message has started
// (`c.started_at IS NOT NULL`).

/** A conversation the snooze sweep woke: what `conversation.updated` tells. */
export type WokenConversationRow = Pick<
  ConversationRow,
  'id' | 'site_id' | 'visitor_id' | 'status' | 'assigned_agent_id' | 'closed_at'
> & { organization_id: string };

@Injectable()
export class ConversationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Newest first. The total is a sum over the organization's conversation_totals rows (kept by a
   * trigger), so it costs the same at a hundred conversations and at a million.
   */
  async page(
    organizationId: string,
    filter: ConversationFilter,
    page: { perPage: number; offset: number },
  ) {
    const parameters = [
      organizationId,
      filter.status ?? null,
      filter.siteId ?? null,
      filter.assignedAgentId ?? null,
    ];
    const [rows, count] = await Promise.all([
      sql(
        this.dataSource,
        query<ConversationRow>`SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
  c.started_at, c.closed_at, c.closed_by_user_id, c.rating, c.review_comment, c.reviewed_at,
  c.snoozed_until, v.name AS visitor_name, v.email AS visitor_email
  FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND ($2::text IS NULL OR c.status = $2) AND ($3::bigint IS NULL OR c.site_id = $3)
  AND ($4::bigint IS NULL OR c.assigned_agent_id = $4 OR ($4 = 0 AND c.assigned_agent_id IS NULL)) ORDER BY c.id DESC LIMIT $5 OFFSET $6`,
        [...parameters, page.perPage, page.offset],
      ),
      sql(
        this.dataSource,
        query<{ total: string }>`SELECT coalesce(sum(total), 0) AS total FROM conversation_totals
         WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
           AND ($3::bigint IS NULL OR site_id = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)`,
        parameters,
      ),
    ]);
    return { rows, total: Number(count[0].total) };
  }

  async find(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<ConversationRow | undefined> {
    const rows = await sql(
      manager,
      query<ConversationRow>`SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
  c.started_at, c.closed_at, c.closed_by_user_id, c.rating, c.review_comment, c.reviewed_at,
  c.snoozed_until, v.name AS visitor_name, v.email AS visitor_email
  FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.id = $2`,
      [organizationId, conversationId],
    );
    return rows[0];
  }

  /** Reads and locks the conversation for the rest of the transaction (replies and closes queue up). */
  async lock(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<ConversationRow | undefined> {
    const rows = await sql(
      manager,
      query<ConversationRow>`SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
  c.started_at, c.closed_at, c.closed_by_user_id, c.rating, c.review_comment, c.reviewed_at,
  c.snoozed_until, v.name AS visitor_name, v.email AS visitor_email
  FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.id = $2 FOR UPDATE OF c`,
      [organizationId, conversationId],
    );
    return rows[0];
  }

  /**
   * An agent replied: a waiting or missed chat becomes active, and is assigned if it was not.
   * Answers the conversation as it is now. The status change moves the chat between
   * conversation_totals rows, which stay locked until the commit: callers do this last.
   */
  async recordAgentReply(
    manager: EntityManager,
    organizationId: string,
    conversation: ConversationRow,
    agentId: string,
  ): Promise<ConversationRow> {
    const [row] = await sql(
      manager,
      query<Pick<ConversationRow, 'status' | 'assigned_agent_id'>>`UPDATE conversations SET
         status = CASE WHEN status IN ('waiting', 'missed') THEN 'active' ELSE status END,
         assigned_agent_id = COALESCE(assigned_agent_id, $2),
         first_response_by = CASE WHEN first_response_at IS NULL THEN $2 ELSE first_response_by END,
         first_response_at = COALESCE(first_response_at, now()),
         last_message_at = now(), updated_at = now()
       WHERE organization_id = $3 AND id = $1
       RETURNING status, assigned_agent_id`,
      [conversation.id, agentId, organizationId],
    );
    return { ...conversation, ...row };
  }

  async close(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    userId: string | null,
  ): Promise<Date> {
    const rows = await sql(
      manager,
      handTyped<{
        closed_at: Date;
      }>`UPDATE conversations SET status = 'closed', closed_at = now(), closed_by_user_id = $2,
         snoozed_until = NULL, updated_at = now()
       WHERE organization_id = $3 AND id = $1 RETURNING closed_at`,
      [conversationId, userId, organizationId],
    );
    return rows[0].closed_at;
  }

  /** Snoozes the conversation until `until`, or wakes it (`null`). */
  async snooze(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    until: Date | null,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE conversations SET snoozed_until = $3, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, conversationId, until],
    );
  }

  /**
   * Wakes every conversation whose snooze has run out (all organizations: the sweep's work) and
   * answers them, each taken by one instance only.
   */
  async wakeDue(limit: number): Promise<WokenConversationRow[]> {
    return sql(
      this.dataSource,
      query<WokenConversationRow>`UPDATE conversations c SET snoozed_until = NULL, updated_at = now()
       WHERE c.id IN (SELECT id FROM conversations WHERE snoozed_until <= now()
         ORDER BY snoozed_until LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING c.id, c.organization_id, c.site_id, c.visitor_id, c.status, c.assigned_agent_id,
         c.closed_at`,
      [limit],
    );
  }

  /** A closed conversation is open again, waiting (the visitor answered it by email). */
  async reopenWaiting(manager: EntityManager, organizationId: string, conversationId: string) {
    await sql(
      manager,
      query`UPDATE conversations SET status = 'waiting', closed_at = NULL, closed_by_user_id = NULL,
         last_message_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND status = 'closed'`,
      [organizationId, conversationId],
    );
  }

  /** One of the visitor's started conversations, or the latest when `conversationId` is absent. */
  findForVisitor(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    conversationId?: string,
  ): Promise<VisitorConversationRow | undefined> {
    return this.visitorConversation(manager, organizationId, visitorId, conversationId, '');
  }

  /** `findForVisitor`, locked for the rest of the transaction (messages and reviews queue up). */
  lockForVisitor(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    conversationId?: string,
  ): Promise<VisitorConversationRow | undefined> {
    return this.visitorConversation(
      manager,
      organizationId,
      visitorId,
      conversationId,
      'FOR UPDATE',
    );
  }

  private async visitorConversation(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    conversationId: string | undefined,
    lock: '' | 'FOR UPDATE',
  ): Promise<VisitorConversationRow | undefined> {
    const rows = await sql(
      manager,
      lock
        ? query<VisitorConversationRow>`SELECT id, site_id, visitor_id, status, closed_at, rating FROM conversations
       WHERE organization_id = $1 AND visitor_id = $2 AND started_at IS NOT NULL
         AND ($3::bigint IS NULL OR id = $3)
       ORDER BY id DESC LIMIT 1 FOR UPDATE`
        : query<VisitorConversationRow>`SELECT id, site_id, visitor_id, status, closed_at, rating FROM conversations
       WHERE organization_id = $1 AND visitor_id = $2 AND started_at IS NOT NULL
         AND ($3::bigint IS NULL OR id = $3)
       ORDER BY id DESC LIMIT 1`,
      [organizationId, visitorId, conversationId ?? null],
    );
    return rows[0];
  }

  /** The status of one of the visitor's conversations, started or not (`init` returns one unstarted). */
  async statusForVisitor(
    organizationId: string,
    visitorId: string,
    conversationId: string,
  ): Promise<ConversationStatus | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        status: ConversationStatus;
      }>`SELECT status FROM conversations WHERE organization_id = $1 AND visitor_id = $2 AND id = $3`,
      [organizationId, visitorId, conversationId],
    );
    return rows[0]?.status;
  }

  /** Assigns the chat; a waiting or missed chat becomes active (DESIGN section 5). */
  async assign(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    agentId: string,
  ): Promise<ConversationStatus> {
    const rows = await sql(
      manager,
      query<{ status: ConversationStatus }>`UPDATE conversations SET
         status = CASE WHEN status IN ('waiting', 'missed') THEN 'active' ELSE status END,
         assigned_agent_id = $2, updated_at = now()
       WHERE organization_id = $3 AND id = $1 RETURNING status`,
      [conversationId, agentId, organizationId],
    );
    return rows[0].status;
  }

  /**
   * Opens a closed conversation again, `active` and held by its assignee or else `agentId`. A
   * visitor has one open conversation at a time: an unstarted one (the widget made it, nobody
   * wrote) is closed to make room; a started one wins, and the answer is false.
   */
  async reopen(
    manager: EntityManager,
    organizationId: string,
    conversation: { id: string; visitor_id: string },
    agentId: string,
  ): Promise<boolean> {
    await sql(
      manager,
      query`UPDATE conversations SET status = 'closed', closed_at = now(), updated_at = now()
       WHERE organization_id = $1 AND visitor_id = $2 AND status <> 'closed' AND started_at IS NULL`,
      [organizationId, conversation.visitor_id],
    );
    const other = await sql(
      manager,
      query<{
        id: string;
      }>`SELECT id FROM conversations WHERE organization_id = $1 AND visitor_id = $2 AND status <> 'closed'`,
      [organizationId, conversation.visitor_id],
    );
    if (other.length > 0) return false;
    await sql(
      manager,
      query`UPDATE conversations SET status = 'active', closed_at = NULL, closed_by_user_id = NULL,
         assigned_agent_id = COALESCE(assigned_agent_id, $3), updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, conversation.id, agentId],
    );
    return true;
  }

  /** Nobody holds the conversation any more; its status stays as it is. */
  async unassign(manager: EntityManager, organizationId: string, conversationId: string) {
    await sql(
      manager,
      query`UPDATE conversations SET assigned_agent_id = NULL, updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, conversationId],
    );
  }

  /** A waiting chat nobody answered becomes missed; anything else stays as it is. */
  async markMissed(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<{ site_id: string; visitor_id: string } | undefined> {
    const rows = await sql(
      manager,
      query<{
        site_id: string;
        visitor_id: string;
      }>`UPDATE conversations SET status = 'missed', missed_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND status = 'waiting' RETURNING site_id, visitor_id`,
      [organizationId, conversationId],
    );
    return rows[0];
  }

  /**
   * Moves a side's read position forward (never back, never past the last message); the position
   * after the update, or undefined when the conversation is not the organization's.
   */
  async markRead(
    organizationId: string,
    conversationId: string,
    reader: 'visitor' | 'agent',
    messageId: string,
  ): Promise<string | undefined> {
    // The visitor's position counts only the messages the visitor sees (not the private notes).
    const rows = await sql(
      this.dataSource,
      reader === 'visitor'
        ? handTyped<{ position: string }>`UPDATE conversations SET visitor_read_message_id =
           GREATEST(coalesce(visitor_read_message_id, 0), LEAST($3::bigint,
             (SELECT coalesce(max(id), 0) FROM messages WHERE conversation_id = $2 AND NOT private)))
         WHERE organization_id = $1 AND id = $2 AND started_at IS NOT NULL
         RETURNING visitor_read_message_id AS position`
        : handTyped<{ position: string }>`UPDATE conversations SET agent_read_message_id =
           GREATEST(coalesce(agent_read_message_id, 0), LEAST($3::bigint,
             (SELECT coalesce(max(id), 0) FROM messages WHERE conversation_id = $2)))
         WHERE organization_id = $1 AND id = $2 AND started_at IS NOT NULL
         RETURNING agent_read_message_id AS position`,
      [organizationId, conversationId, messageId],
    );
    return rows[0]?.position;
  }

  async review(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    rating: number,
    comment: string | null,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE conversations SET rating = $2, review_comment = $3, reviewed_at = now(), updated_at = now()
       WHERE organization_id = $4 AND id = $1`,
      [conversationId, rating, comment, organizationId],
    );
  }
}

export interface VisitorConversationRow {
  id: string;
  site_id: string;
  visitor_id: string;
  status: ConversationStatus;
  closed_at: Date | null;
  rating: number | null;
}
