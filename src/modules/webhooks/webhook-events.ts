/** The eleven events an endpoint can subscribe to (spec section 6, DESIGN section 6). */
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
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event of a test delivery (`POST /api/agent/webhooks/{id}/test`). */
export const PING_EVENT = 'webhook.ping';
