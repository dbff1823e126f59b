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
  TicketSummaryRow,
  TicketActivityKind,
  TicketActivityRow,
  TicketActor,
} from './ticket-rows';

const LIST_COLUMNS =
  'id, site_id, visitor_id, ticket_number, subject, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at';
const SUMMARY_COLUMNS = 'id, ticket_number, subject, status, priority, source, created_at';
const COLUMNS = `${LIST_COLUMNS}, organization_id, description, conversation_id`;

/**
 * `column = $n` for each given field an agent sorts tickets by (a filter's conditions, a change's
 * assignments); the values are appended to `parameters`.
 */
function deskFields(parameters: unknown[], fields: TicketFilter | TicketChanges): string[] {
  const columns: [string, unknown][] = [
    ['status', fields.status],
    ['priority', fields.priority],
    ['assigned_agent_id', fields.assignedAgentId],
  ];
  return columns
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => {
      parameters.push(value);
      return `${column} = $${parameters.length}`;
    });
}

@Injectable()
export class TicketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of tickets, newest first, optionally of one status, one priority and one assignee. */
  page(
    organizationId: string,
    filter: TicketFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: TicketListRow[]; total: number }> {
    return this.pageOf<TicketListRow>(LIST_COLUMNS, organizationId, filter, page);
  }

  /** The same page with only the columns the public API lists. */
  summaryPage(
    organizationId: string,
    filter: TicketFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: TicketSummaryRow[]; total: number }> {
    return this.pageOf<TicketSummaryRow>(SUMMARY_COLUMNS, organizationId, filter, page);
  }

  /**
   * Newest first. The total is a sum over the organization's ticket_totals rows (kept by a
   * trigger for every filter a list has), so it costs the same at a hundred tickets and at a
   * million.
   */
  private pageOf<T>(
    columns: string,
    organizationId: string,
    filter: TicketFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: T[]; total: number }> {
    const parameters: unknown[] = [organizationId];
    const conditions = ['organization_id = $1', ...deskFields(parameters, filter)];
    if (filter.search !== undefined) {
      parameters.push(escapeLike(filter.search));
      conditions.push(
        `(ticket_number || ' ' || subject) ILIKE '%' || $${parameters.length} || '%'`,
      );
    }
    if (filter.conversationId !== undefined) {
      parameters.push(filter.conversationId);
      conditions.push(`conversation_id = $${parameters.length}`);
    }
    // Put together from the filter given (unchecked); LIMIT and OFFSET follow its parameters.
    const where = conditions.join(' AND ');
    const next = parameters.length;
    return pageOf<T>(
      this.dataSource,
      {
        rows: `SELECT ${columns} FROM tickets WHERE ${where}
          ORDER BY id DESC LIMIT $${next + 1} OFFSET $${next + 2}`,
        // The kept totals have no search or conversation column: such a list counts its rows.
        total:
          filter.search === undefined && filter.conversationId === undefined
            ? `SELECT coalesce(sum(total), 0) AS total FROM ticket_totals WHERE ${where}`
            : `SELECT count(*) AS total FROM tickets WHERE ${where}`,
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
    const parameters: unknown[] = [organizationId, ticketId];
    const assignments = ['updated_at = now()', ...deskFields(parameters, changes)];
    const rows = await sql<TicketRow>(
      manager,
      `UPDATE tickets SET ${assignments.join(', ')} WHERE organization_id = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      parameters,
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
