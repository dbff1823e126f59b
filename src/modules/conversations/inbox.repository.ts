import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';
import type { ConversationRow, ConversationStatus } from './conversations.repository';

export interface InboxFilter {
  status?: ConversationStatus;
  siteId?: number;
  /** An agent's id, or '0' for the unassigned ones. */
  assignedAgentId?: string;
  /** A label's id (digits) or name (any case). */
  label?: string;
  /** `newest`: started last first; `activity`: last message first. */
  sort: 'newest' | 'activity';
  /** Only the snoozed ones (true), or all but them (false). */
  snoozed: boolean;
}

export interface InboxRow extends ConversationRow {
  last_message_at: Date | null;
  labels: { id: string; name: string; color: string }[];
  last_message: { id: string; body: string; sender_type: string; created_at: string } | null;
  unread_count: string;
}

/**
 * Visitor messages the agents have not seen: after the agents' read position and after the last
 * agent reply (replying means having read). Bounded by messages_conversation_idx.
 */
const UNREAD = `(SELECT count(*) FROM messages u WHERE u.conversation_id = c.id AND u.sender_type = 'visitor'
  AND u.id > GREATEST(coalesce(c.agent_read_message_id, 0), coalesce((SELECT max(a.id) FROM messages a
    WHERE a.conversation_id = c.id AND a.sender_type = 'agent'), 0)))`;

const LABELS = `(SELECT coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
  ORDER BY lower(l.name)), '[]') FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
  WHERE cl.conversation_id = c.id)`;

const LAST_MESSAGE = `(SELECT json_build_object('id', m.id, 'body', left(m.body, 200),
  'sender_type', m.sender_type, 'created_at', m.created_at) FROM messages m
  WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1)`;

const LABEL_MATCH = `EXISTS (SELECT 1 FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
  WHERE cl.conversation_id = c.id AND l.organization_id = $1
    AND (l.id::text = $5 OR lower(l.name) = lower($5)))`;

/** The agent inbox's list: the dashboard's views over one indexed query per page. */
@Injectable()
export class InboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    organizationId: string,
    filter: InboxFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: InboxRow[]; total: number }> {
    const parameters = [
      organizationId,
      filter.status ?? null,
      filter.siteId ?? null,
      filter.assignedAgentId ?? null,
      filter.label ?? null,
    ];
    const where = `c.organization_id = $1 AND c.started_at IS NOT NULL
      AND ($2::text IS NULL OR c.status = $2) AND ($3::bigint IS NULL OR c.site_id = $3)
      AND ($4::bigint IS NULL OR c.assigned_agent_id = $4 OR ($4 = 0 AND c.assigned_agent_id IS NULL))
      AND ($5::text IS NULL OR ${LABEL_MATCH})`;
    const snoozed = `c.snoozed_until > now()`;
    const shown = `${where} AND ${filter.snoozed ? snoozed : `NOT coalesce(${snoozed}, false)`}`;
    const order =
      filter.sort === 'activity' ? 'c.last_message_at DESC NULLS LAST, c.id DESC' : 'c.id DESC';
    // Without a label the total is a sum over the trigger-kept conversation_totals rows, less the
    // snoozed ones (few, found by conversations_snoozed_idx); the Snoozed view counts its rows.
    const total =
      filter.label === undefined && !filter.snoozed
        ? sql(
            this.dataSource,
            query<{
              total: string;
            }>`SELECT coalesce(sum(total), 0) - (SELECT count(*) FROM conversations c
               WHERE c.organization_id = $1 AND c.started_at IS NOT NULL
      AND ($2::text IS NULL OR c.status = $2) AND ($3::bigint IS NULL OR c.site_id = $3)
      AND ($4::bigint IS NULL OR c.assigned_agent_id = $4 OR ($4 = 0 AND c.assigned_agent_id IS NULL))
      AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
  WHERE cl.conversation_id = c.id AND l.organization_id = $1
    AND (l.id::text = $5 OR lower(l.name) = lower($5)))) AND c.snoozed_until > now()) AS total FROM conversation_totals
             WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
               AND ($3::bigint IS NULL OR site_id = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)
               AND $5::text IS NULL`,
            parameters,
          )
        : sql<{ total: string }>(
            this.dataSource,
            `SELECT count(*) AS total FROM conversations c WHERE ${shown}`,
            parameters,
          );
    const [rows, count] = await Promise.all([
      sql<InboxRow>(
        this.dataSource,
        `SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
           c.started_at, c.closed_at, c.closed_by_user_id, c.last_message_at, c.snoozed_until,
           v.name AS visitor_name, v.email AS visitor_email,
           ${LABELS} AS labels, ${LAST_MESSAGE} AS last_message, ${UNREAD} AS unread_count
         FROM conversations c JOIN visitors v ON v.id = c.visitor_id
         WHERE ${shown} ORDER BY ${order} LIMIT $6 OFFSET $7`,
        [...parameters, page.perPage, page.offset],
      ),
      total,
    ]);
    return { rows, total: Number(count[0].total) };
  }

  /** The labels of one conversation (of the organization), by name. */
  async labelsOf(organizationId: string, conversationId: string): Promise<InboxRow['labels']> {
    const rows = await sql(
      this.dataSource,
      handTyped<{
        labels: InboxRow['labels'];
      }>`SELECT (SELECT coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
         ORDER BY lower(l.name)), '[]') FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
         WHERE cl.conversation_id = c.id) AS labels FROM conversations c WHERE c.organization_id = $1 AND c.id = $2`,
      [organizationId, conversationId],
    );
    return rows[0]?.labels ?? [];
  }
}
