/**
 * Every domain event by name, with the payload it carries: the one list a publisher, a subscriber
 * and the webhook endpoint settings read. Payloads are JSON (what the outbox row stores and a
 * webhook delivery sends as `data`), and each carries its `organization_id`. Builders live with
 * the feature that publishes (`conversations/conversation-events.ts`,
 * `tickets/ticket-events.ts`, `agents/agent-events.ts`); who consumes what is in
 * `subscriptions.ts` beside this file.
 */

/**
 * The public half: the thirteen events a webhook endpoint can subscribe to (spec section 6,
 * `visitor.erased` of DESIGN section 12 and `kb.article_published` of section 10).
 */
export const WEBHOOK_EVENTS = [
  'conversation.started',
  'message.received',
  'message.sent',
  'chat.missed',
  'chat.closed',
  'ticket.created',
  'ticket.assigned',
  'ticket.status_changed',
  'ticket.priority_changed',
  'ticket.comment_added',
  'review.submitted',
  'visitor.erased',
  'kb.article_published',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The internal half: on record in the outbox, never sent to a webhook endpoint. */
export const INTERNAL_EVENTS = [
  'conversation.assigned',
  'agent.online',
  'appointment.booked',
  'appointment.status_changed',
] as const;
export type InternalEvent = (typeof INTERNAL_EVENTS)[number];

export type DomainEventType = WebhookEvent | InternalEvent;
export const DOMAIN_EVENTS: readonly DomainEventType[] = [...WEBHOOK_EVENTS, ...INTERNAL_EVENTS];

// Type aliases, not interfaces: a payload is also a plain `Record<string, unknown>` (the JSON
// a webhook delivery sends), which an interface is not.
type Tenant = { organization_id: number };

/** A message as the message events carry it. */
interface MessagePayload {
  id: number;
  body: string;
  type: string;
  attachments: {
    id: number;
    file_name: string;
    content_type: string;
    size: number;
    url: string;
  }[];
}

/** The payload of each event (DESIGN section 6 for the webhook events). */
export interface DomainEventPayloads {
  'conversation.started': Tenant & {
    conversation: {
      id: number;
      site_id: number;
      visitor_id: number;
      status: string;
      started_at: string;
    };
    visitor: { id: number; name: string | null; email: string | null };
  };
  'message.received': Tenant & {
    conversation_id: number;
    site_id: number;
    message: MessagePayload;
  };
  'message.sent': Tenant & {
    conversation_id: number;
    site_id: number;
    message: MessagePayload & { sender_id: number };
  };
  'chat.missed': Tenant & { conversation_id: number; site_id: number; visitor_id: number };
  /** `closed_by` is the closing agent, null when the visitor ended the chat. */
  'chat.closed': Tenant & {
    conversation_id: number;
    site_id: number;
    closed_at: string;
    closed_by: number | null;
  };
  'review.submitted': Tenant & { conversation_id: number; rating: number; comment: string | null };
  /** Ids only: nothing of what was erased. The conversations stay, without their content. */
  'visitor.erased': Tenant & {
    visitor_id: number;
    site_id: number;
    conversation_ids: number[];
    erased_at: string;
  };
  /** An article became published (created published, or a draft or archived one published). */
  'kb.article_published': Tenant & {
    article: {
      id: number;
      site_id: number;
      locale: string;
      title: string;
      slug: string;
      category_id: number | null;
      translation_of: number | null;
      published_at: string;
      url: string;
    };
  };
  'ticket.created': Tenant & {
    ticket: {
      id: number;
      ticket_number: string;
      subject: string;
      status: string;
      priority: string;
      source: string;
    };
  };
  'ticket.assigned': Tenant & {
    ticket_id: number;
    assigned_agent_id: number | null;
    previous_agent_id: number | null;
  };
  'ticket.status_changed': Tenant & { ticket_id: number; from: string; to: string };
  'ticket.priority_changed': Tenant & { ticket_id: number; from: string; to: string };
  'ticket.comment_added': Tenant & {
    ticket_id: number;
    comment: { id: number; body: string; is_internal: boolean };
  };
  /**
   * `auto` is present (true) when automatic assignment chose the agent; `assigned_agent_id` is
   * null when an agent unassigned the conversation.
   */
  'conversation.assigned': Tenant & {
    conversation_id: number;
    site_id: number;
    assigned_agent_id: number | null;
    previous_agent_id: number | null;
    auto?: true;
  };
  'agent.online': Tenant & { agent_id: number };
  'appointment.booked': Tenant & { appointment_id: number; site_id: number };
  'appointment.status_changed': Tenant & {
    appointment_id: number;
    site_id: number;
    from: string;
    to: string;
  };
}
