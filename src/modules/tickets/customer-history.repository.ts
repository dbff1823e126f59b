import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';
import type { TicketPriority, TicketStatus } from './ticket-rows';

export interface CustomerTicketRow {
  id: string;
  ticket_number: string;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  created_at: Date;
}

export interface CustomerConversationRow {
  id: string;
  site_id: string;
  status: 'waiting' | 'active' | 'closed' | 'missed';
  assigned_agent_id: string | null;
  started_at: Date;
  closed_at: Date | null;
}

/** Who a customer is: a visitor, an address, or both (either may be unknown). */
export interface Customer {
  visitorId: string | null;
  email: string | null;
}

/**
 * A customer's tickets and chats in one organization: those of the visitor, and those under the
 * same address (tickets by their customer address, chats by their visitor's), regardless of case
 * (tickets_customer_email_idx, visitors_email_idx). At most 50 of each list: the newest.
 */
@Injectable()
export class CustomerHistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  tickets(
    organizationId: string,
    customer: Customer,
    exceptId: string,
  ): Promise<CustomerTicketRow[]> {
    return sql(
      this.dataSource,
      query<CustomerTicketRow>`SELECT id, ticket_number, subject, status, priority, created_at FROM tickets t
       WHERE t.organization_id = $1 AND t.id <> $4 AND (
         t.visitor_id = $2::bigint
         OR lower(t.customer_email) = lower($3::text)
         OR t.visitor_id IN (SELECT v.id FROM visitors v
                             WHERE v.organization_id = $1 AND lower(v.email) = lower($3::text)))
       ORDER BY t.id DESC LIMIT 50`,
      [organizationId, customer.visitorId, customer.email, exceptId],
    );
  }

  conversations(organizationId: string, customer: Customer): Promise<CustomerConversationRow[]> {
    return sql(
      this.dataSource,
      handTyped<CustomerConversationRow>`SELECT c.id, c.site_id, c.status, c.assigned_agent_id, c.started_at, c.closed_at
       FROM conversations c
       WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND (
         c.visitor_id = $2::bigint
         OR c.visitor_id IN (SELECT v.id FROM visitors v
                             WHERE v.organization_id = $1 AND lower(v.email) = lower($3::text)))
       ORDER BY c.id DESC LIMIT 50`,
      [organizationId, customer.visitorId, customer.email],
    );
  }
}
