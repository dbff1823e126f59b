import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { OutboxService } from '../outbox/outbox.service';
import type { DomainEvent } from '../outbox/domain-event';
import type { VisitorRow } from '../visitors/visitors.repository';
import { VisitorsService } from '../visitors/visitors.service';
import { assigneeOf } from './ticket-assignee';
import { ticketEvents } from './ticket-events';
import {
  type TicketFilter,
  type TicketPriority,
  type TicketRow,
  type TicketSource,
} from './ticket-rows';
import { TicketsRepository } from './tickets.repository';

/**
 * A ticket filed through the public API or the agent desk (only the desk may assign it). A null
 * optional field counts as left out.
 */
export interface CreateTicketInput {
  subject: string;
  description: string;
  priority?: TicketPriority | null;
  site_id?: number | null;
  visitor_id?: number | null;
  customer_name?: string | null;
  customer_email?: string | null;
  assigned_agent_id?: number | null;
}

/** A ticket a visitor raises from the widget: filed under the widget's site, linked to the visitor. */
export interface WidgetTicketInput {
  siteId: string;
  visitorId: string;
  subject: string;
  description: string;
  priority?: TicketPriority;
  customerName?: string;
  customerEmail?: string;
}

/** Everything a new ticket is made of, whichever door it came in by. */
interface TicketDraft {
  source: TicketSource;
  subject: string;
  description: string;
  priority?: TicketPriority;
  siteId?: string;
  visitorId?: string;
  customerName?: string;
  customerEmail?: string;
  assignedAgentId?: number;
}

const optionalId = (value: number | null | undefined): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

/**
 * Tickets read (desk and public API) and filed (API, desk, widget). What happens to a ticket
 * afterwards is `TicketChangesService`'s.
 */
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

  page(organizationId: string, filter: TicketFilter, page: { perPage: number; offset: number }) {
    return this.tickets.page(organizationId, filter, page);
  }

  /** The public API's list: the same tickets, fewer columns. */
  summaryPage(
    organizationId: string,
    filter: TicketFilter,
    page: { perPage: number; offset: number },
  ) {
    return this.tickets.summaryPage(organizationId, filter, page);
  }

  async get(organizationId: string, ticketId: string) {
    const ticket = await this.tickets.find(organizationId, ticketId);
    if (!ticket) throw AppError.notFound();
    const comments = await this.tickets.comments(this.dataSource.manager, organizationId, ticketId);
    return { ticket, comments };
  }

  /**
   * A ticket from the public API (`api`) or the agent desk (`dashboard`). The public API uses
   * `customer_name` and `customer_email` only when no visitor is linked (the spec): a linked
   * visitor's own name and email are the customer's. The desk's agent may correct them.
   */
  create(
    organizationId: string,
    input: CreateTicketInput,
    source: 'api' | 'dashboard',
  ): Promise<TicketRow> {
    const linked = source === 'api' && input.visitor_id !== undefined && input.visitor_id !== null;
    return this.open(organizationId, {
      source,
      subject: input.subject,
      description: input.description,
      priority: input.priority ?? undefined,
      siteId: optionalId(input.site_id),
      visitorId: optionalId(input.visitor_id),
      customerName: linked ? undefined : (input.customer_name ?? undefined),
      customerEmail: linked ? undefined : (input.customer_email ?? undefined),
      assignedAgentId: input.assigned_agent_id ?? undefined,
    });
  }

  /** A ticket a visitor raises from the widget (`widget`), linked to that visitor. */
  createFromWidget(organizationId: string, input: WidgetTicketInput): Promise<TicketRow> {
    return this.open(organizationId, { source: 'widget', ...input });
  }

  /** A ticket from a mail to an email inbox (`email`), the sender as the customer. */
  createFromEmail(
    organizationId: string,
    input: {
      siteId: string;
      subject: string;
      description: string;
      customerName?: string;
      customerEmail: string;
    },
  ): Promise<TicketRow> {
    return this.open(organizationId, { source: 'email', ...input });
  }

  /**
   * Files a ticket: needs ticketing on the plan (403), numbered from the organization's sequence
   * for the year and announced as `ticket.created` (and `ticket.assigned` when it starts with an
   * assignee), in one transaction.
   */
  private async open(organizationId: string, draft: TicketDraft): Promise<TicketRow> {
    await this.organizations.requireFeature(organizationId, 'ticketing');

    const siteId = await this.tickets.siteOf(organizationId, draft.siteId);
    if (!siteId) {
      throw AppError.invalid(
        'site_id',
        draft.siteId === undefined
          ? 'The organization has no site to file the ticket under.'
          : 'The selected site_id is not a site of this organization.',
      );
    }
    const visitor =
      draft.visitorId === undefined
        ? undefined
        : await this.visitorOf(organizationId, draft.visitorId);
    const assignedAgentId =
      draft.assignedAgentId === undefined
        ? null
        : await assigneeOf(this.agents, organizationId, draft.assignedAgentId);

    const ticketNumber = await this.tickets.nextNumber(organizationId);
    return this.dataSource.transaction(async (manager) => {
      const ticket = await this.tickets.insert(manager, organizationId, {
        siteId,
        visitorId: visitor?.id ?? null,
        ticketNumber,
        subject: draft.subject,
        description: draft.description,
        priority: draft.priority ?? 'normal',
        source: draft.source,
        // The customer fields describe who asked when no visitor is linked; a linked visitor's
        // own fill in what is left out (all of it from the public API, see `create`).
        customerName: draft.customerName ?? visitor?.name ?? null,
        customerEmail: draft.customerEmail ?? visitor?.email ?? null,
        assignedAgentId,
      });
      const events: DomainEvent[] = [ticketEvents.created(ticket)];
      if (assignedAgentId !== null) events.push(ticketEvents.assigned(ticket, null));
      await this.outbox.publish(manager, ...events);
      return ticket;
    });
  }

  /** A visitor of the organization, or 422 on `visitor_id`. */
  private async visitorOf(organizationId: string, visitorId: string): Promise<VisitorRow> {
    try {
      return await this.visitors.get(organizationId, visitorId);
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
