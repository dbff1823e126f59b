import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../database/sql';

export const CONVERSATION_STATUSES = ['waiting', 'active', 'closed', 'missed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

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
  visitor_name: string | null;
  visitor_email: string | null;
}

export interface ConversationFilter {
  status?: ConversationStatus;
  siteId?: number;
  assignedAgentId?: number;
}

const SELECT = `SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
  c.started_at, c.closed_at, c.closed_by_user_id, v.name AS visitor_name, v.email AS visitor_email
  FROM conversations c JOIN visitors v ON v.id = c.visitor_id`;

/** Only conversations a first message has started exist for listing and reading. */
const VISIBLE = `c.organization_id = $1 AND c.started_at IS NOT NULL`;
const FILTERS = `($2::text IS NULL OR c.status = $2) AND ($3::bigint IS NULL OR c.site_id = $3)
  AND ($4::bigint IS NULL OR c.assigned_agent_id = $4)`;

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
      sql<ConversationRow>(
        this.dataSource,
        `${SELECT} WHERE ${VISIBLE} AND ${FILTERS} ORDER BY c.id DESC LIMIT $5 OFFSET $6`,
        [...parameters, page.perPage, page.offset],
      ),
      sql<{ total: string }>(
        this.dataSource,
        `SELECT coalesce(sum(total), 0) AS total FROM conversation_totals
         WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
           AND ($3::bigint IS NULL OR site_id = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)`,
        parameters,
      ),
    ]);
    return { rows, total: Number(count[0].total) };
  }

  async find(
    organizationId: string,
    conversationId: string,
    manager?: EntityManager,
  ): Promise<ConversationRow | undefined> {
    const rows = await sql<ConversationRow>(
      manager ?? this.dataSource,
      `${SELECT} WHERE ${VISIBLE} AND c.id = $2`,
      [organizationId, conversationId],
    );
    return rows[0];
  }

  /** Locks the conversation for the rest of the transaction (replies and closes queue up). */
  async lock(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<ConversationRow | undefined> {
    await sql(
      manager,
      `SELECT id FROM conversations WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, conversationId],
    );
    return this.find(organizationId, conversationId, manager);
  }

  /** An agent replied: a waiting or missed chat becomes active, and is assigned if it was not. */
  async recordAgentReply(
    manager: EntityManager,
    conversationId: string,
    agentId: string,
  ): Promise<void> {
    await sql(
      manager,
      `UPDATE conversations SET
         status = CASE WHEN status IN ('waiting', 'missed') THEN 'active' ELSE status END,
         assigned_agent_id = COALESCE(assigned_agent_id, $2),
         last_message_at = now(), updated_at = now()
       WHERE id = $1`,
      [conversationId, agentId],
    );
  }

  async close(
    manager: EntityManager,
    conversationId: string,
    userId: string | null,
  ): Promise<Date> {
    const rows = await sql<{ closed_at: Date }>(
      manager,
      `UPDATE conversations SET status = 'closed', closed_at = now(), closed_by_user_id = $2, updated_at = now()
       WHERE id = $1 RETURNING closed_at`,
      [conversationId, userId],
    );
    return rows[0].closed_at;
  }
}
