import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { escapeLike, handTyped, pageOf, query, sql } from '../../database/sql';
import type {
  CommentAuthorType,
  NewTicket,
  TicketChanges,
  TicketCommentRow,
  TicketFilter,
  TicketListRow,
  TicketRow,
  TicketActivityKind,
  TicketActivityRow,
  TicketActor,
} from './ticket-rows';

@Injectable()
export class TicketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A page of tickets, newest first, optionally of one status, one priority and one assignee, with
   * a search and of one conversation. The total is a sum over the organization's ticket_totals
   * rows (kept by a trigger for every filter a list has but the search and the conversation), so
   * it costs the same at a hundred tickets and at a million; with either of those it counts rows.
   * A filter not given is NULL and folds away: unnamed statements are planned with the values.
   */
  page(
    organizationId: string,
    filter: TicketFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: TicketListRow[]; total: number }> {
    const parameters = [
      organizationId,
      filter.status ?? null,
      filter.priority ?? null,
      filter.assignedAgentId ?? null,
      filter.search === undefined ? null : escapeLike(filter.search),
      filter.conversationId ?? null,
    ];
    return pageOf(
      this.dataSource,
      {
        rows: query<TicketListRow>`SELECT id, site_id, visitor_id, ticket_number, subject, status, priority, source,
            customer_name, customer_email, assigned_agent_id, created_at, updated_at
          FROM tickets WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
            AND ($3::text IS NULL OR priority = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)
            AND ($5::text IS NULL OR (ticket_number || ' ' || subject) ILIKE '%' || $5 || '%')
            AND ($6::bigint IS NULL OR conversation_id = $6)
          ORDER BY id DESC LIMIT $7 OFFSET $8`,
        total:
          filter.search === undefined && filter.conversationId === undefined
            ? query<{ total: string }>`SELECT coalesce(sum(total), 0) AS total FROM ticket_totals
                WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
                  AND ($3::text IS NULL OR priority = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)
                  AND $5::text IS NULL AND $6::bigint IS NULL`
            : query<{ total: string }>`SELECT count(*) AS total
                FROM tickets WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
                  AND ($3::text IS NULL OR priority = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)
                  AND ($5::text IS NULL OR (ticket_number || ' ' || subject) ILIKE '%' || $5 || '%')
                  AND ($6::bigint IS NULL OR conversation_id = $6)`,
      },
      parameters,
      page,
    );
  }

  async find(organizationId: string, ticketId: string): Promise<TicketRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<TicketRow>`SELECT id, site_id, visitor_id, ticket_number, subject, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at, organization_id, description, conversation_id FROM tickets WHERE organization_id = $1 AND id = $2`,
      [organizationId, ticketId],
    );
    return rows[0];
  }

  /** The ticket's comments, public and internal, oldest first. */
  async comments(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
  ): Promise<TicketCommentRow[]> {
    return sql(
      manager,
      query<TicketCommentRow>`SELECT id, body, is_internal, author_type, author_id, sender_mismatch, created_at FROM ticket_comments
       WHERE organization_id = $1 AND ticket_id = $2 ORDER BY id`,
      [organizationId, ticketId],
    );
  }

  /**
   * The next ticket number of the organization for the current (UTC) year,
   * `TKT-<year>-<6-digit sequence>` (DESIGN section 5), taken in a statement of its own, outside
   * the creating transaction: the sequence row is locked only while that statement commits, so
   * concurrent creations do not queue behind each other's whole transactions. A creation that
   * fails afterwards leaves a gap, as a database sequence does.
   */
  async nextNumber(organizationId: string): Promise<string> {
    const rows = await sql(
      this.dataSource,
      handTyped<{
        number: string;
      }>`INSERT INTO ticket_sequences AS s (organization_id, year, last_value)
       VALUES ($1, EXTRACT(YEAR FROM now() AT TIME ZONE 'UTC')::integer, 1)
       ON CONFLICT (organization_id, year) DO UPDATE SET last_value = s.last_value + 1
       RETURNING 'TKT-' || year || '-'
         || lpad(last_value::text, greatest(6, length(last_value::text)), '0') AS number`,
      [organizationId],
    );
    return rows[0].number;
  }

  async insert(
    manager: EntityManager,
    organizationId: string,
    ticket: NewTicket,
  ): Promise<TicketRow> {
    const rows = await sql(
      manager,
      query<TicketRow>`INSERT INTO tickets (organization_id, site_id, visitor_id, ticket_number, subject, description,
         status, priority, source, customer_name, customer_email, assigned_agent_id, conversation_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $11, $12)
       RETURNING id, site_id, visitor_id, ticket_number, subject, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at, organization_id, description, conversation_id`,
      [
        organizationId,
        ticket.siteId,
        ticket.visitorId,
        ticket.ticketNumber,
        ticket.subject,
        ticket.description,
        ticket.priority,
        ticket.source,
        ticket.customerName,
        ticket.customerEmail,
        ticket.assignedAgentId,
        ticket.conversationId ?? null,
      ],
    );
    return rows[0];
  }

  /** Locks the ticket row until the transaction ends; undefined when it is not the organization's. */
  async lock(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
  ): Promise<TicketRow | undefined> {
    const rows = await sql(
      manager,
      query<TicketRow>`SELECT id, site_id, visitor_id, ticket_number, subject, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at, organization_id, description, conversation_id FROM tickets WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, ticketId],
    );
    return rows[0];
  }

  /** Sets the given fields (and `updated_at`); with no field given it only touches `updated_at`. */
  async update(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
    changes: TicketChanges,
  ): Promise<TicketRow> {
    const rows = await sql(
      manager,
      query<TicketRow>`UPDATE tickets SET updated_at = now(), status = coalesce($3, status),
         priority = coalesce($4, priority),
         assigned_agent_id = CASE WHEN $5::boolean THEN $6::bigint ELSE assigned_agent_id END
       WHERE organization_id = $1 AND id = $2
       RETURNING id, site_id, visitor_id, ticket_number, subject, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at, organization_id, description, conversation_id`,
      [
        organizationId,
        ticketId,
        changes.status ?? null,
        changes.priority ?? null,
        changes.assignedAgentId !== undefined,
        changes.assignedAgentId ?? null,
      ],
    );
    return rows[0];
  }

  async insertComment(
    manager: EntityManager,
    organizationId: string,
    comment: {
      ticketId: string;
      authorType: CommentAuthorType;
      authorId: string | null;
      body: string;
      isInternal: boolean;
      senderMismatch?: boolean;
    },
  ): Promise<TicketCommentRow> {
    const rows = await sql(
      manager,
      query<TicketCommentRow>`INSERT INTO ticket_comments (organization_id, ticket_id, author_type, author_id, body, is_internal,
         sender_mismatch)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, body, is_internal, author_type, author_id, sender_mismatch, created_at`,
      [
        organizationId,
        comment.ticketId,
        comment.authorType,
        comment.authorId,
        comment.body,
        comment.isInternal,
        comment.senderMismatch ?? false,
      ],
    );
    return rows[0];
  }

  /** The site's id when `siteId` is a site of the organization; without it, the first (lowest id). */
  async siteOf(organizationId: string, siteId?: string): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`SELECT id FROM sites WHERE organization_id = $1 AND ($2::bigint IS NULL OR id = $2)
       ORDER BY id LIMIT 1`,
      [organizationId, siteId ?? null],
    );
    return rows[0]?.id;
  }

  /** Adds lines to a ticket's history, in the transaction of the change they record. */
  async insertActivity(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
    actor: TicketActor,
    entries: { kind: TicketActivityKind; from: string | null; to: string | null }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    // The entries as parallel arrays, in their order (ORDINALITY), which is the history's.
    await sql(
      manager,
      query`INSERT INTO ticket_activity
         (organization_id, ticket_id, kind, from_value, to_value, actor_type, actor_id)
       SELECT $1, $2, kind, from_value, to_value, $3, $4
         FROM unnest($5::text[], $6::text[], $7::text[]) WITH ORDINALITY
           AS e (kind, from_value, to_value, position)
        ORDER BY position`,
      [
        organizationId,
        ticketId,
        actor.type,
        actor.userId,
        entries.map((entry) => entry.kind),
        entries.map((entry) => entry.from),
        entries.map((entry) => entry.to),
      ],
    );
  }

  /** A ticket's history, oldest first (a few lines per ticket; bounded all the same). */
  activity(
    executor: EntityManager | DataSource,
    organizationId: string,
    ticketId: string,
  ): Promise<TicketActivityRow[]> {
    return sql(
      executor,
      query<TicketActivityRow>`SELECT id, kind, from_value, to_value, actor_type, actor_id, created_at FROM ticket_activity
       WHERE organization_id = $1 AND ticket_id = $2 ORDER BY id LIMIT 500`,
      [organizationId, ticketId],
    );
  }
}
