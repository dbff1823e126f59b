import type {
  CommentAuthorType,
  TicketCommentRow,
  TicketPriority,
  TicketRow,
  TicketSource,
  TicketStatus,
} from './ticket-rows';

export type { CommentAuthorType, TicketPriority, TicketSource, TicketStatus };

/**
 * A ticket as the other features see it (issue 32, point 7): what `TicketsService` answers to
 * them (`get`, `createFromEmail`), mapped once from the table's row here, so no feature but this
 * one depends on `TicketRow`.
 */
export interface TicketRecord {
  id: string;
  organizationId: string;
  siteId: string;
  visitorId: string | null;
  ticketNumber: string;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  source: TicketSource;
  customerName: string | null;
  customerEmail: string | null;
  assignedAgentId: string | null;
  /** The conversation it was made from, when an agent turned a chat into a ticket. */
  conversationId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A ticket's comment as the other features see it (`TicketChangesService`'s comments too). */
export interface TicketCommentRecord {
  id: string;
  body: string;
  isInternal: boolean;
  authorType: CommentAuthorType;
  authorId: string | null;
  /** Written by mail from another address than the one the reply address was sent to. */
  senderMismatch: boolean;
  createdAt: Date;
}

/** A ticket with its comments, oldest first: `TicketsService.get`. */
export interface TicketThreadRecord {
  ticket: TicketRecord;
  comments: TicketCommentRecord[];
}

export const toTicketRecord = (row: TicketRow): TicketRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  siteId: row.site_id,
  visitorId: row.visitor_id,
  ticketNumber: row.ticket_number,
  subject: row.subject,
  description: row.description,
  status: row.status,
  priority: row.priority,
  source: row.source,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  assignedAgentId: row.assigned_agent_id,
  conversationId: row.conversation_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const toTicketCommentRecord = (row: TicketCommentRow): TicketCommentRecord => ({
  id: row.id,
  body: row.body,
  isInternal: row.is_internal,
  authorType: row.author_type,
  authorId: row.author_id,
  senderMismatch: row.sender_mismatch,
  createdAt: row.created_at,
});
