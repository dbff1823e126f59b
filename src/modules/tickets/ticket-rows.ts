/* What TicketsRepository reads and writes: the ticket and comment rows, filters and changes. */

export type TicketStatus = 'open' | 'pending' | 'in_progress' | 'resolved' | 'closed';
export const TICKET_STATUSES: readonly TicketStatus[] = [
  'open',
  'pending',
  'in_progress',
  'resolved',
  'closed',
];

export type TicketPriority = 'low' | 'normal' | 'high' | 'urgent';
export const TICKET_PRIORITIES: readonly TicketPriority[] = ['low', 'normal', 'high', 'urgent'];

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
  source: TicketSource;
  customer_name: string | null;
  customer_email: string | null;
  assigned_agent_id: string | null;
  /** The conversation it was made from, when an agent turned a chat into a ticket. */
  conversation_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A ticket as lists show it: everything but the (long) description. */
export type TicketListRow = Omit<TicketRow, 'organization_id' | 'description' | 'conversation_id'>;

/** A ticket as the public API lists it. */
export type TicketSummaryRow = Pick<
  TicketRow,
  'id' | 'ticket_number' | 'subject' | 'status' | 'priority' | 'source' | 'created_at'
>;

export type TicketSource = 'api' | 'widget' | 'dashboard' | 'email';
export const TICKET_SOURCES: readonly TicketSource[] = ['api', 'widget', 'dashboard', 'email'];

export type CommentAuthorType = 'agent' | 'visitor' | 'customer' | 'system';
export const COMMENT_AUTHOR_TYPES: readonly CommentAuthorType[] = [
  'agent',
  'visitor',
  'customer',
  'system',
];

export interface TicketCommentRow {
  id: string;
  body: string;
  is_internal: boolean;
  author_type: CommentAuthorType;
  author_id: string | null;
  /** Written by mail from another address than the one the reply address was sent to. */
  sender_mismatch: boolean;
  created_at: Date;
}

export interface TicketFilter {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignedAgentId?: number;
  /** Text found anywhere in the ticket number or subject (any case; tickets_search_trgm_idx). */
  search?: string;
  /** The tickets made from this conversation. */
  conversationId?: number;
}

export interface NewTicket {
  siteId: string;
  visitorId: string | null;
  ticketNumber: string;
  subject: string;
  description: string;
  priority: TicketPriority;
  source: TicketSource;
  customerName: string | null;
  customerEmail: string | null;
  assignedAgentId: string | null;
  conversationId?: string | null;
}

/** What a change may set; a field left undefined keeps its value. */
export interface TicketChanges {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignedAgentId?: string | null;
}

export type TicketActorType = 'agent' | 'api' | 'customer' | 'system';

/** Who made a change on a ticket: a member, an API key, the customer, or the service. */
export interface TicketActor {
  type: TicketActorType;
  /** The member (for an API key: the agent it acted as); null otherwise. */
  userId: string | null;
}

export type TicketActivityKind = 'created' | 'status' | 'priority' | 'assignee';

/** One line of a ticket's history. */
export interface TicketActivityRow {
  id: string;
  kind: TicketActivityKind;
  from_value: string | null;
  to_value: string | null;
  actor_type: TicketActorType;
  actor_id: string | null;
  created_at: Date;
}
