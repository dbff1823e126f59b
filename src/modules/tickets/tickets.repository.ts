import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { pageOf, sql } from '../../database/sql';

export const TICKET_STATUSES = ['open', 'pending', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export interface TicketRow {
  id: string;
  organization_id: string;
  site_id: string;
  visitor_id: string | null;
  ticket_number: string;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  source: string;
  customer_name: string | null;
  customer_email: string | null;
  assigned_agent_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type TicketListRow = Pick<
  TicketRow,
  'id' | 'ticket_number' | 'subject' | 'status' | 'priority' | 'source' | 'created_at'
>;

export interface TicketCommentRow {
  id: string;
  body: string;
  is_internal: boolean;
  created_at: Date;
}

export interface NewTicket {
  siteId: string;
  visitorId: string | null;
  ticketNumber: string;
  subject: string;
  description: string;
  priority: TicketPriority;
  source: 'api' | 'widget' | 'dashboard';
  customerName: string | null;
  customerEmail: string | null;
}

const COLUMNS =
  'id, organization_id, site_id, visitor_id, ticket_number, subject, description, status, priority, source, customer_name, customer_email, assigned_agent_id, created_at, updated_at';
const LIST_COLUMNS = 'id, ticket_number, subject, status, priority, source, created_at';

@Injectable()
export class TicketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of tickets, newest first, optionally of one status and one priority. */
  async page(
    organizationId: string,
    filter: { status?: TicketStatus; priority?: TicketPriority },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: TicketListRow[]; total: number }> {
    const conditions = ['organization_id = $1'];
    const parameters: unknown[] = [organizationId];
    if (filter.status) {
      parameters.push(filter.status);
      conditions.push(`status = $${parameters.length}`);
    }
    if (filter.priority) {
      parameters.push(filter.priority);
      conditions.push(`priority = $${parameters.length}`);
    }
    return pageOf<TicketListRow>(
      this.dataSource,
      {
        columns: LIST_COLUMNS,
        from: 'tickets',
        where: conditions.join(' AND '),
        parameters,
        orderBy: 'id DESC',
      },
      page,
    );
  }

  async find(organizationId: string, ticketId: string): Promise<TicketRow | undefined> {
    const rows = await sql<TicketRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM tickets WHERE organization_id = $1 AND id = $2`,
      [organizationId, ticketId],
    );
    return rows[0];
  }

  /** The ticket's comments, oldest first. */
  async comments(organizationId: string, ticketId: string): Promise<TicketCommentRow[]> {
    return sql<TicketCommentRow>(
      this.dataSource,
      `SELECT id, body, is_internal, created_at FROM ticket_comments
       WHERE organization_id = $1 AND ticket_id = $2 ORDER BY id`,
      [organizationId, ticketId],
    );
  }

  /**
   * The next number of the organization's ticket sequence for the current (UTC) year. The upsert
   * holds the sequence row's lock until the transaction ends, so concurrent creations queue up
   * and never get the same number.
   */
  async nextSequence(
    manager: EntityManager,
    organizationId: string,
  ): Promise<{ year: number; value: number }> {
    const rows = await sql<{ year: number; last_value: number }>(
      manager,
      `INSERT INTO ticket_sequences (organization_id, year, last_value)
       VALUES ($1, EXTRACT(YEAR FROM now() AT TIME ZONE 'UTC')::integer, 1)
       ON CONFLICT (organization_id, year)
       DO UPDATE SET last_value = ticket_sequences.last_value + 1
       RETURNING year, last_value`,
      [organizationId],
    );
    return { year: rows[0].year, value: rows[0].last_value };
  }

  async insert(
    manager: EntityManager,
    organizationId: string,
    ticket: NewTicket,
  ): Promise<TicketRow> {
    const rows = await sql<TicketRow>(
      manager,
      `INSERT INTO tickets (organization_id, site_id, visitor_id, ticket_number, subject, description,
         status, priority, source, customer_name, customer_email)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10)
       RETURNING ${COLUMNS}`,
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
      ],
    );
    return rows[0];
  }

  /** Locks the ticket row until the transaction ends; undefined when it is not the organization's. */
  async lock(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
  ): Promise<Pick<TicketRow, 'id' | 'status'> | undefined> {
    const rows = await sql<Pick<TicketRow, 'id' | 'status'>>(
      manager,
      `SELECT id, status FROM tickets WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, ticketId],
    );
    return rows[0];
  }

  async updateStatus(
    manager: EntityManager,
    organizationId: string,
    ticketId: string,
    status: TicketStatus,
  ): Promise<void> {
    await sql(
      manager,
      `UPDATE tickets SET status = $3, updated_at = now() WHERE organization_id = $1 AND id = $2`,
      [organizationId, ticketId, status],
    );
  }

  /** The site's id when `siteId` is a site of the organization; without it, the first (lowest id). */
  async siteOf(organizationId: string, siteId?: number): Promise<string | undefined> {
    const rows = await sql<{ id: string }>(
      this.dataSource,
      `SELECT id FROM sites WHERE organization_id = $1 AND ($2::bigint IS NULL OR id = $2)
       ORDER BY id LIMIT 1`,
      [organizationId, siteId ?? null],
    );
    return rows[0]?.id;
  }
}
