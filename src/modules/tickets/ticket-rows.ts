/* What TicketsRepository reads and writes: the ticket and comment rows, filters and changes. */

export const TICKET_STATUSES = ['open', 'pending', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

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
  source: string;
  customer_name: string | null;
  customer_email: string | null;
  assigned_agent_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A ticket as lists show it: everything but the (long) description. */
export type TicketListRow = Omit<TicketRow, 'organization_id' | 'description'>;

/** A ticket as the public API lists it. */
export type TicketSummaryRow = Pick<
  TicketRow,
  'id' | 'ticket_number' | 'subject' | 'status' | 'priority' | 'source' | 'created_at'
>;

export const TICKET_SOURCES = ['api', 'widget', 'dashboard', 'email'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

export const COMMENT_AUTHOR_TYPES = ['agent', 'visitor', 'customer', 'system'] as const;
export type CommentAuthorType = (typeof COMMENT_AUTHOR_TYPES)[number];

export interface TicketCommentRow {
  id: string;
  body: string;
  is_internal: boolean;
  author_type: CommentAuthorType;
  author_id: string | null;
  created_at: Date;
}

export interface TicketFilter {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignedAgentId?: number;
  /** Text found anywhere in the ticket number or subject (any case; tickets_search_trgm_idx). */
  search?: string;
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
}

/** What a change may set; a field left undefined keeps its value. */
export interface TicketChanges {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignedAgentId?: string | null;
}
