import { domainEvent as event } from '../outbox/domain-event';
import { idOrNull, toTicketSummary } from './tickets.dto';
import type { TicketCommentRow, TicketRow } from './ticket-rows';

/** The ticket events, built in one place so every source (API, desk, widget) emits the same. */
export const ticketEvents = {
  created: (ticket: TicketRow) =>
    event('ticket.created', ticket.organization_id, { ticket: toTicketSummary(ticket) }),

  assigned: (ticket: TicketRow, previousAgentId: string | null) =>
    event('ticket.assigned', ticket.organization_id, {
      ticket_id: Number(ticket.id),
      assigned_agent_id: idOrNull(ticket.assigned_agent_id),
      previous_agent_id: idOrNull(previousAgentId),
    }),

  statusChanged: (ticket: TicketRow, from: string) =>
    event('ticket.status_changed', ticket.organization_id, {
      ticket_id: Number(ticket.id),
      from,
      to: ticket.status,
    }),

  priorityChanged: (ticket: TicketRow, from: string) =>
    event('ticket.priority_changed', ticket.organization_id, {
      ticket_id: Number(ticket.id),
      from,
      to: ticket.priority,
    }),

  commentAdded: (ticket: Pick<TicketRow, 'id' | 'organization_id'>, comment: TicketCommentRow) =>
    event('ticket.comment_added', ticket.organization_id, {
      ticket_id: Number(ticket.id),
      comment: { id: Number(comment.id), body: comment.body, is_internal: comment.is_internal },
    }),
};
