import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { OutboxService } from '../outbox/outbox.service';
import type { VisitorRow } from '../visitors/visitors.repository';
import { VisitorsService } from '../visitors/visitors.service';
import {
  type TicketPriority,
  type TicketRow,
  type TicketStatus,
  TicketsRepository,
} from './tickets.repository';

export interface CreateTicketInput {
  subject: string;
  description: string;
  priority?: TicketPriority;
  site_id?: number;
  visitor_id?: number;
  customer_name?: string;
  customer_email?: string;
}

/** `TKT-<year>-<6-digit sequence>` (DESIGN section 5). */
export const ticketNumber = (year: number, sequence: number): string =>
  `TKT-${year}-${String(sequence).padStart(6, '0')}`;

@Injectable()
export class TicketsService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly agents: AgentsService,
    private readonly visitors: VisitorsService,
    private readonly organizations: OrganizationsService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
  ) {}

  page(
    organizationId: string,
    filter: { status?: TicketStatus; priority?: TicketPriority },
    page: { perPage: number; offset: number },
  ) {
    return this.tickets.page(organizationId, filter, page);
  }

  async get(organizationId: string, ticketId: string) {
    const ticket = await this.tickets.find(organizationId, ticketId);
    if (!ticket) throw AppError.notFound();
    const comments = await this.tickets.comments(organizationId, ticketId);
    return { ticket, comments };
  }

  /**
   * A ticket from the public API: needs ticketing on the plan (403), numbered from the
   * organization's sequence for the year and announced as `ticket.created`, in one transaction.
   */
  async create(organizationId: string, input: CreateTicketInput): Promise<TicketRow> {
    await this.organizations.requireFeature(organizationId, 'ticketing');

    const siteId = await this.tickets.siteOf(organizationId, input.site_id);
    if (!siteId) {
      throw AppError.invalid(
        'site_id',
        input.site_id === undefined
          ? 'The organization has no site to file the ticket under.'
          : 'The selected site_id is not a site of this organization.',
      );
    }
    const visitor =
      input.visitor_id === undefined
        ? undefined
        : await this.visitorOf(organizationId, input.visitor_id);

    return this.dataSource.transaction(async (manager) => {
      const sequence = await this.tickets.nextSequence(manager, organizationId);
      const ticket = await this.tickets.insert(manager, organizationId, {
        siteId,
        visitorId: visitor?.id ?? null,
        ticketNumber: ticketNumber(sequence.year, sequence.value),
        subject: input.subject,
        description: input.description,
        priority: input.priority ?? 'normal',
        source: 'api',
        // The customer fields describe who asked when no visitor is linked; a linked visitor
        // fills in what the request leaves out.
        customerName: input.customer_name ?? visitor?.name ?? null,
        customerEmail: input.customer_email ?? visitor?.email ?? null,
      });
      await this.outbox.publish(manager, {
        type: 'ticket.created',
        organizationId,
        payload: {
          organization_id: Number(organizationId),
          ticket: {
            id: Number(ticket.id),
            ticket_number: ticket.ticket_number,
            subject: ticket.subject,
            status: ticket.status,
            priority: ticket.priority,
            source: ticket.source,
          },
        },
      });
      return ticket;
    });
  }

  /**
   * Moves a ticket to `status` (any of the five values, from any other). The acting agent is
   * checked as DESIGN section 5 says; an unchanged status writes and emits nothing.
   */
  async updateStatus(
    key: ApiKeyPrincipal,
    ticketId: string,
    input: { status: TicketStatus; agent_user_id?: number },
  ): Promise<{ id: string; status: TicketStatus }> {
    const organizationId = key.organizationId;
    return this.dataSource.transaction(async (manager) => {
      const ticket = await this.tickets.lock(manager, organizationId, ticketId);
      if (!ticket) throw AppError.notFound();

      await this.agents.resolveActor(organizationId, input.agent_user_id, key.createdByUserId);

      if (ticket.status !== input.status) {
        await this.tickets.updateStatus(manager, organizationId, ticketId, input.status);
        await this.outbox.publish(manager, {
          type: 'ticket.status_changed',
          organizationId,
          payload: {
            organization_id: Number(organizationId),
            ticket_id: Number(ticket.id),
            from: ticket.status,
            to: input.status,
          },
        });
      }
      return { id: ticket.id, status: input.status };
    });
  }

  /** A visitor of the organization, or 422 on `visitor_id`. */
  private async visitorOf(organizationId: string, visitorId: number): Promise<VisitorRow> {
    try {
      return await this.visitors.get(organizationId, String(visitorId));
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw AppError.invalid(
          'visitor_id',
          'The selected visitor_id is not a visitor of this organization.',
        );
      }
      throw error;
    }
  }
}
