import { Injectable } from '@nestjs/common';
import { RealtimeService } from '../realtime/realtime.service';
import type { TicketPush } from '../realtime/socket-events';
import type { TicketActor, TicketRow } from './ticket-rows';
import { TicketsRepository } from './tickets.repository';

export type { TicketPush };

/**
 * `ticket.created` and `ticket.updated` on the agents' channel: what an open ticket list needs to
 * show a new or changed ticket without a reload, and to tell the agent (a sound, the tab title's
 * count) when the change is not their own. The payload is `TicketPush` in `socket-events.ts`.
 */
@Injectable()
export class TicketPushes {
  constructor(
    private readonly realtime: RealtimeService,
    private readonly tickets: TicketsRepository,
  ) {}

  /** After the commit: the ticket as it is now, to every agent of the organization. */
  async announce(
    organizationId: string,
    ticketId: string,
    change: TicketPush['change'],
    actor: TicketActor,
    row?: TicketRow,
  ): Promise<void> {
    const ticket = row ?? (await this.tickets.find(organizationId, ticketId));
    if (!ticket) return;
    const push: TicketPush = {
      ticket_id: Number(ticket.id),
      ticket_number: ticket.ticket_number,
      subject: ticket.subject,
      status: ticket.status,
      priority: ticket.priority,
      assigned_agent_id:
        ticket.assigned_agent_id === null ? null : Number(ticket.assigned_agent_id),
      change,
      by_user_id: actor.userId === null ? null : Number(actor.userId),
      by_customer: actor.type === 'customer',
    };
    this.realtime.toOrganization(
      organizationId,
      change === 'created' ? 'ticket.created' : 'ticket.updated',
      push,
    );
  }
}
