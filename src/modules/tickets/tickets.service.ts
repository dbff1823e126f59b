import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import { ConversationsService } from '../conversations/conversations.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { OutboxService } from '../outbox/outbox.service';
import type { DomainEvent } from '../outbox/domain-event';
import { VisitorsService } from '../visitors/visitors.service';
import { assigneeOf } from './ticket-assignee';
import { ticketEvents } from './ticket-events';
import { TicketPushes } from './ticket-pushes';
import {
  type TicketFilter,
  type TicketPriority,
  type TicketRow,
  type TicketSource,
  type TicketActor,
} from './ticket-rows';
import { TicketsRepository } from './tickets.repository';
import {
  toTicketCommentRecord,
  toTicketRecord,
  type TicketRecord,
  type TicketThreadRecord,
} from './ticket-record';
import { CustomerHistoryRepository } from './customer-history.repository';
import {
  afterCommit,
  inTransaction,
  type SharedTransaction,
} from '../../database/shared-transaction';

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
  /** The desk only: the conversation the ticket is made from. */
  conversation_id?: number;
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
  /** Who files it: recorded as the first line of its history. */
  actor: TicketActor;
  conversationId?: string;
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
    private readonly conversations: ConversationsService,
    private readonly organizations: OrganizationsService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly pushes: TicketPushes,
    private readonly history: CustomerHistoryRepository,
  ) {}

  page(organizationId: string, filter: TicketFilter, page: { perPage: number; offset: number }) {
    return this.tickets.page(organizationId, filter, page);
  }

  /** The ticket with its comments, oldest first, as the other features read it; else 404. */
  async get(organizationId: string, ticketId: string): Promise<TicketThreadRecord> {
    const ticket = await this.tickets.find(organizationId, ticketId);
    if (!ticket) throw AppError.notFound();
    const comments = await this.tickets.comments(this.dataSource.manager, organizationId, ticketId);
    return { ticket: toTicketRecord(ticket), comments: comments.map(toTicketCommentRecord) };
  }

  /** The ticket's rows with its comments and its history, for this feature's own answers. */
  async detail(organizationId: string, ticketId: string) {
    const ticket = await this.tickets.find(organizationId, ticketId);
    if (!ticket) throw AppError.notFound();
    const [comments, activity] = await Promise.all([
      this.tickets.comments(this.dataSource.manager, organizationId, ticketId),
      this.tickets.activity(this.dataSource, organizationId, ticketId),
    ]);
    return { ticket, comments, activity };
  }

  /**
   * The ticket's customer elsewhere: their other tickets and their chats, found by the ticket's
   * visitor and by its address (the ticket's customer address, else its visitor's).
   */
  async customerHistory(organizationId: string, ticketId: string) {
    const ticket = await this.tickets.find(organizationId, ticketId);
    if (!ticket) throw AppError.notFound();
    const visitorEmail =
      ticket.customer_email === null && ticket.visitor_id !== null
        ? (await this.visitors.get(organizationId, ticket.visitor_id)).email
        : null;
    const customer = {
      visitorId: ticket.visitor_id,
      email: ticket.customer_email ?? visitorEmail ?? null,
    };
    const [tickets, conversations] = await Promise.all([
      this.history.tickets(organizationId, customer, ticketId),
      this.history.conversations(organizationId, customer),
    ]);
    return { customer, tickets, conversations };
  }

  /**
   * A ticket from the public API (`api`) or the agent desk (`dashboard`). The public API uses
   * `customer_name` and `customer_email` only when no visitor is linked (the spec): a linked
   * visitor's own name and email are the customer's. The desk's agent may correct them.
   */
  async create(
    organizationId: string,
    input: CreateTicketInput,
    source: 'api' | 'dashboard',
    actor: TicketActor,
  ): Promise<TicketRow> {
    const linked = source === 'api' && input.visitor_id !== undefined && input.visitor_id !== null;
    const chat =
      input.conversation_id === undefined
        ? undefined
        : await this.conversationOf(organizationId, String(input.conversation_id));
    return this.open(organizationId, {
      source,
      subject: input.subject,
      description: input.description,
      priority: input.priority ?? undefined,
      // A chat turned into a ticket: its site and visitor unless the agent chose others.
      siteId: optionalId(input.site_id) ?? chat?.siteId,
      visitorId: optionalId(input.visitor_id) ?? chat?.visitorId,
      conversationId: chat?.id,
      customerName: linked ? undefined : (input.customer_name ?? undefined),
      customerEmail: linked ? undefined : (input.customer_email ?? undefined),
      assignedAgentId: input.assigned_agent_id ?? undefined,
      actor,
    });
  }

  /** A ticket a visitor raises from the widget (`widget`), linked to that visitor. */
  createFromWidget(organizationId: string, input: WidgetTicketInput): Promise<TicketRow> {
    return this.open(organizationId, {
      source: 'widget',
      ...input,
      actor: { type: 'customer', userId: null },
    });
  }

  /** A ticket from a mail to an email inbox (`email`), the sender as the customer. */
  async createFromEmail(
    organizationId: string,
    input: {
      siteId: string;
      subject: string;
      description: string;
      customerName?: string;
      customerEmail: string;
    },
    tx?: SharedTransaction,
  ): Promise<TicketRecord> {
    return toTicketRecord(
      await this.open(
        organizationId,
        { source: 'email', ...input, actor: { type: 'customer', userId: null } },
        tx,
      ),
    );
  }

  /**
   * Files a ticket: needs ticketing on the plan (403), numbered from the organization's sequence
   * for the year and announced as `ticket.created` (and `ticket.assigned` when it starts with an
   * assignee), in one transaction (`tx`'s when given: the incoming mail it comes from is marked
   * taken in the same one).
   */
  private async open(
    organizationId: string,
    draft: TicketDraft,
    tx?: SharedTransaction,
  ): Promise<TicketRow> {
    await this.organizations.requireFeature(organizationId, 'ticketing');

    const siteId = await this.tickets.siteOf(organizationId, draft.siteId);
    if (!siteId) {
      throw AppError.invalid(
        'site_id',
        draft.siteId === undefined
          ? 'The organization has no site to file the ticket under.'
          : 'The selected site_id is not a site of this organization.',
        draft.siteId === undefined ? 'organization_has_no_site' : 'site_not_in_organization',
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
    const filed = await inTransaction(this.dataSource, tx, async (manager) => {
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
        conversationId: draft.conversationId ?? null,
      });
      const events: DomainEvent[] = [ticketEvents.created(ticket)];
      if (assignedAgentId !== null) events.push(ticketEvents.assigned(ticket, null));
      await this.outbox.publish(manager, ...events);
      await this.tickets.insertActivity(manager, organizationId, ticket.id, draft.actor, [
        { kind: 'created', from: null, to: ticket.status },
        ...(assignedAgentId === null
          ? []
          : [{ kind: 'assignee' as const, from: null, to: assignedAgentId }]),
      ]);
      return ticket;
    });
    await afterCommit(tx, () =>
      this.pushes.announce(organizationId, filed.id, 'created', draft.actor, filed),
    );
    return filed;
  }

  /** A conversation of the organization, or 422 on `conversation_id`. */
  private async conversationOf(organizationId: string, conversationId: string) {
    try {
      return await this.conversations.get(organizationId, conversationId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw AppError.invalid(
          'conversation_id',
          'The selected conversation_id is not a conversation of this organization.',
          'conversation_not_in_organization',
        );
      }
      throw error;
    }
  }

  /** A visitor of the organization, or 422 on `visitor_id`. */
  private async visitorOf(organizationId: string, visitorId: string) {
    try {
      return await this.visitors.get(organizationId, visitorId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw AppError.invalid(
          'visitor_id',
          'The selected visitor_id is not a visitor of this organization.',
          'visitor_not_in_organization',
        );
      }
      throw error;
    }
  }
}
