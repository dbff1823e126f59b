import type { Schemas } from '../../../../shared/api/client';

export type WebhookEvent = Schemas['CreateWebhookDto']['events'][number];

export const WEBHOOK_EVENTS: WebhookEvent[] = [
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
];
