import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal, ApiKeyPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { OutboxService } from '../outbox/outbox.service';
import type { DomainEvent } from '../outbox/domain-event';
import type { VisitorRow } from '../visitors/visitors.repository';
import { VisitorsService } from '../visitors/visitors.service';
import { ticketEvents } from './ticket-events';
import {
  type TicketChanges,
  type TicketCommentRow,
  type TicketFilter,
  type TicketPriority,
  type TicketRow,
  type TicketSource,
  type TicketStatus,
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

/** A desk change; `assigned_agent_id: null` unassigns, an omitted field keeps its value. */
export interface TicketUpdateInput {
  status?: TicketStatus;
  priority?: TicketPriority;
  assigned_agent_id?: number | null;
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
    const comments = await this.tickets.comments(organizationId, ticketId);
    return { ticket, comments };
  }

  /** A ticket from the public API (`api`) or the agent desk (`dashboard`). */
  create(
    organizationId: string,
    input: CreateTicketInput,
    source: 'api' | 'dashboard',
  ): Promise<TicketRow> {
    return this.open(organizationId, {
      source,
      subject: input.subject,
      description: input.description,
      priority: input.priority ?? undefined,
      siteId: optionalId(input.site_id),
      visitorId: optionalId(input.visitor_id),
      customerName: input.customer_name ?? undefined,
      customerEmail: input.customer_email ?? undefined,
      assignedAgentId: input.assigned_agent_id ?? undefined,
    });
  }

  /** A ticket a visitor raises from the widget (`widget`), linked to that visitor. */
  createFromWidget(organizationId: string, input: WidgetTicketInput): Promise<TicketRow> {
    return this.open(organizationId, { source: 'widget', ...input });
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
    return this.onLocked(key.organizationId, ticketId, async (manager, ticket) => {
      await this.agents.resolveActor(key.organizationId, input.agent_user_id, key.createdByUserId);
      const updated = await this.change(manager, ticket, { status: input.status });
      return { id: updated.id, status: updated.status };
    });
  }

  /**
   * The desk's change of status, priority and assignee, on the locked row in one transaction.
   * Only what actually changes is written and announced; a request that changes nothing answers
   * the ticket as it is.
   */
  async update(
    organizationId: string,
    ticketId: string,
    input: TicketUpdateInput,
  ): Promise<{ ticket: TicketRow; comments: TicketCommentRow[] }> {
    if (
      input.status === undefined &&
      input.priority === undefined &&
      input.assigned_agent_id === undefined
    ) {
      const message = 'Give at least one of status, priority or assigned_agent_id.';
      throw AppError.validation({
        status: [message],
        priority: [message],
        assigned_agent_id: [message],
      });
    }
    return this.onLocked(organizationId, ticketId, async (manager, ticket) => {
      const assignedAgentId =
        input.assigned_agent_id === undefined || input.assigned_agent_id === null
          ? input.assigned_agent_id
          : await this.assignee(organizationId, input.assigned_agent_id);

      const updated = await this.change(manager, ticket, {
        status: input.status,
        priority: input.priority,
        assignedAgentId,
      });
      return {
        ticket: updated,
        comments: await this.tickets.comments(organizationId, ticketId, manager),
      };
    });
  }

  /** An agent's comment (public or internal); it also marks the ticket updated. */
  async addComment(
    agent: AgentPrincipal,
    ticketId: string,
    input: { body: string; is_internal?: boolean },
  ): Promise<TicketCommentRow> {
    const organizationId = agent.organizationId;
    return this.onLocked(organizationId, ticketId, async (manager, ticket) => {
      const comment = await this.tickets.insertComment(manager, organizationId, {
        ticketId,
        authorType: 'agent',
        authorId: agent.userId,
        body: input.body,
        isInternal: input.is_internal ?? false,
      });
      await this.tickets.update(manager, organizationId, ticketId, {});
      await this.outbox.publish(manager, ticketEvents.commentAdded(ticket, comment));
      return comment;
    });
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
        : await this.assignee(organizationId, draft.assignedAgentId);

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
        // The customer fields describe who asked when no visitor is linked; a linked visitor
        // fills in what the request leaves out.
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

  /**
   * Runs a write on the ticket's row, locked for the transaction so concurrent writes see each
   * other's result (and their events chain up); another organization's ticket is a 404.
   */
  private onLocked<T>(
    organizationId: string,
    ticketId: string,
    work: (manager: EntityManager, ticket: TicketRow) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const ticket = await this.tickets.lock(manager, organizationId, ticketId);
      if (!ticket) throw AppError.notFound();
      return work(manager, ticket);
    });
  }

  /**
   * Writes the fields of `changes` that differ from the locked `ticket` and emits one event per
   * changed field (DESIGN section 6); with nothing different it writes and emits nothing.
   */
  private async change(
    manager: EntityManager,
    ticket: TicketRow,
    changes: TicketChanges,
  ): Promise<TicketRow> {
    const differs = (value: unknown, current: unknown) => value !== undefined && value !== current;
    const status = differs(changes.status, ticket.status) ? changes.status : undefined;
    const priority = differs(changes.priority, ticket.priority) ? changes.priority : undefined;
    const assignedAgentId = differs(changes.assignedAgentId, ticket.assigned_agent_id)
      ? changes.assignedAgentId
      : undefined;
    if (status === undefined && priority === undefined && assignedAgentId === undefined) {
      return ticket;
    }

    const updated = await this.tickets.update(manager, ticket.organization_id, ticket.id, {
      status,
      priority,
      assignedAgentId,
    });
    const events: DomainEvent[] = [];
    if (status !== undefined) events.push(ticketEvents.statusChanged(updated, ticket.status));
    if (priority !== undefined) events.push(ticketEvents.priorityChanged(updated, ticket.priority));
    if (assignedAgentId !== undefined) {
      events.push(ticketEvents.assigned(updated, ticket.assigned_agent_id));
    }
    await this.outbox.publish(manager, ...events);
    return updated;
  }

  /** The id of an active member of the organization to assign, or 422 on `assigned_agent_id`. */
  private async assignee(organizationId: string, agentId: number): Promise<string> {
    const agent = await this.agents.findMember(organizationId, String(agentId));
    if (!agent) {
      throw AppError.invalid(
        'assigned_agent_id',
        'The selected assigned_agent_id is not an agent of this organization.',
      );
    }
    return agent.id;
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
