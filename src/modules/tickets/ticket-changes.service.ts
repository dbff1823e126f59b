import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal, ApiKeyPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { AgentsService } from '../agents/agents.service';
import type { DomainEvent } from '../outbox/domain-event';
import { OutboxService } from '../outbox/outbox.service';
import { assigneeOf } from './ticket-assignee';
import { ticketEvents } from './ticket-events';
import { type TicketPush, TicketPushes } from './ticket-pushes';
import type {
  TicketActivityRow,
  TicketActor,
  TicketChanges,
  TicketCommentRow,
  TicketPriority,
  TicketRow,
  TicketStatus,
} from './ticket-rows';
import { toTicketCommentRecord, type TicketCommentRecord } from './ticket-record';
import { TicketsRepository } from './tickets.repository';
import {
  afterCommit,
  inTransaction,
  type SharedTransaction,
} from '../../database/shared-transaction';

/** A desk change; `assigned_agent_id: null` unassigns, an omitted field keeps its value. */
export interface TicketUpdateInput {
  status?: TicketStatus;
  priority?: TicketPriority;
  assigned_agent_id?: number | null;
}

/**
 * What happens to a filed ticket: its status (public API and desk), priority and assignee (desk)
 * and the agents' comments, each on the locked row and announced with one event per changed
 * field in the same transaction. Filing is `TicketsService`'s.
 */
@Injectable()
export class TicketChangesService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly agents: AgentsService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly pushes: TicketPushes,
  ) {}

  /**
   * Moves a ticket to `status` (any of the five values, from any other). The acting agent is
   * checked as DESIGN section 5 says; an unchanged status writes and emits nothing.
   */
  async updateStatus(
    key: ApiKeyPrincipal,
    ticketId: string,
    input: { status: TicketStatus; agent_user_id?: number },
  ): Promise<{ id: string; status: TicketStatus }> {
    return this.onLocked(
      key.organizationId,
      ticketId,
      'updated',
      undefined,
      async (manager, ticket) => {
        const agent = await this.agents.resolveActor(
          manager,
          key.organizationId,
          input.agent_user_id,
          key.createdByUserId,
        );
        const actor: TicketActor = { type: 'api', userId: agent.id };
        const updated = await this.change(manager, ticket, { status: input.status }, actor);
        return { result: { id: updated.id, status: updated.status }, actor, row: updated };
      },
    );
  }

  /**
   * The desk's change of status, priority and assignee, on the locked row in one transaction.
   * Only what actually changes is written and announced; a request that changes nothing answers
   * the ticket as it is.
   */
  async update(
    agent: AgentPrincipal,
    ticketId: string,
    input: TicketUpdateInput,
  ): Promise<{
    ticket: TicketRow;
    comments: TicketCommentRow[];
    activity: TicketActivityRow[];
  }> {
    const organizationId = agent.organizationId;
    if (
      input.status === undefined &&
      input.priority === undefined &&
      input.assigned_agent_id === undefined
    ) {
      const message = 'Give at least one of status, priority or assigned_agent_id.';
      throw AppError.validation(
        {
          status: [message],
          priority: [message],
          assigned_agent_id: [message],
        },
        'ticket_change_empty',
      );
    }
    return this.onLocked(
      organizationId,
      ticketId,
      'updated',
      undefined,
      async (manager, ticket) => {
        const assignedAgentId =
          input.assigned_agent_id === undefined || input.assigned_agent_id === null
            ? input.assigned_agent_id
            : await assigneeOf(this.agents, organizationId, input.assigned_agent_id);

        const actor: TicketActor = { type: 'agent', userId: agent.userId };
        const updated = await this.change(
          manager,
          ticket,
          { status: input.status, priority: input.priority, assignedAgentId },
          actor,
        );
        const result = {
          ticket: updated,
          comments: await this.tickets.comments(manager, organizationId, ticketId),
          activity: await this.tickets.activity(manager, organizationId, ticketId),
        };
        return { result, actor, row: updated };
      },
    );
  }

  /**
   * An agent's comment (public or internal); it also marks the ticket updated. `senderMismatch`:
   * the agent answered a notification by mail, from another address than their own.
   */
  async addComment(
    agent: Pick<AgentPrincipal, 'organizationId' | 'userId'>,
    ticketId: string,
    input: { body: string; is_internal?: boolean; senderMismatch?: boolean },
    tx?: SharedTransaction,
  ): Promise<TicketCommentRecord> {
    const organizationId = agent.organizationId;
    return this.onLocked(organizationId, ticketId, 'commented', tx, async (manager, ticket) => {
      const comment = await this.tickets.insertComment(manager, organizationId, {
        ticketId,
        authorType: 'agent',
        authorId: agent.userId,
        body: input.body,
        isInternal: input.is_internal ?? false,
        senderMismatch: input.senderMismatch,
      });
      await this.tickets.update(manager, organizationId, ticketId, {});
      await this.outbox.publish(manager, ticketEvents.commentAdded(ticket, comment));
      return {
        result: toTicketCommentRecord(comment),
        actor: { type: 'agent', userId: agent.userId },
      };
    });
  }

  /** The customer's answer by mail: a comment whose author is the customer (never internal). */
  async addCustomerComment(
    organizationId: string,
    ticketId: string,
    body: string,
    senderMismatch = false,
    tx?: SharedTransaction,
  ): Promise<TicketCommentRecord> {
    return this.onLocked(organizationId, ticketId, 'commented', tx, async (manager, ticket) => {
      const comment = await this.tickets.insertComment(manager, organizationId, {
        ticketId,
        authorType: 'customer',
        authorId: null,
        body,
        isInternal: false,
        senderMismatch,
      });
      await this.tickets.update(manager, organizationId, ticketId, {});
      await this.outbox.publish(manager, ticketEvents.commentAdded(ticket, comment));
      return { result: toTicketCommentRecord(comment), actor: { type: 'customer', userId: null } };
    });
  }

  /**
   * Runs a write on the ticket's row, locked for the transaction so concurrent writes see each
   * other's result (and their events chain up); another organization's ticket is a 404. In `tx`
   * when given (an incoming mail's delivery), its push then after that commits.
   */
  private async onLocked<T>(
    organizationId: string,
    ticketId: string,
    change: TicketPush['change'],
    tx: SharedTransaction | undefined,
    work: (
      manager: EntityManager,
      ticket: TicketRow,
    ) => Promise<{ result: T; actor: TicketActor; row?: TicketRow }>,
  ): Promise<T> {
    const { result, actor, row } = await inTransaction(this.dataSource, tx, async (manager) => {
      const ticket = await this.tickets.lock(manager, organizationId, ticketId);
      if (!ticket) throw AppError.notFound();
      return work(manager, ticket);
    });
    // Open ticket lists show it without a reload (after the commit: never a change undone).
    await afterCommit(tx, () => this.pushes.announce(organizationId, ticketId, change, actor, row));
    return result;
  }

  /**
   * Writes the fields of `changes` that differ from the locked `ticket` and emits one event per
   * changed field (DESIGN section 6); with nothing different it writes and emits nothing.
   */
  private async change(
    manager: EntityManager,
    ticket: TicketRow,
    changes: TicketChanges,
    actor: TicketActor,
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
    await this.tickets.insertActivity(manager, ticket.organization_id, ticket.id, actor, [
      ...(status === undefined
        ? []
        : [{ kind: 'status' as const, from: ticket.status, to: status }]),
      ...(priority === undefined
        ? []
        : [{ kind: 'priority' as const, from: ticket.priority, to: priority }]),
      ...(assignedAgentId === undefined
        ? []
        : [{ kind: 'assignee' as const, from: ticket.assigned_agent_id, to: assignedAgentId }]),
    ]);
    return updated;
  }
}
