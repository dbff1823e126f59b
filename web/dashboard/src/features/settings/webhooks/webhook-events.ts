import type { Schemas } from '../../../../../shared/api/client';

export type WebhookEvent = Schemas['CreateWebhookDto']['events'][number];

/**
 * Every event the API accepts, in the order the form shows them. Keyed by the generated API
 * type, so `npm run typecheck` fails when the OpenAPI document gains or drops an event and this
 * list was not changed with it (types carry no values at run time: the order lives here).
 */
const ORDER = {
  'conversation.started': 1,
  'message.received': 2,
  'message.sent': 3,
  'chat.missed': 4,
  'chat.closed': 5,
  'ticket.created': 6,
  'ticket.assigned': 7,
  'ticket.status_changed': 8,
  'ticket.priority_changed': 9,
  'ticket.comment_added': 10,
  'review.submitted': 11,
  'visitor.erased': 12,
  'kb.article_published': 13,
} satisfies Record<WebhookEvent, number>;

export const WEBHOOK_EVENTS = (Object.keys(ORDER) as WebhookEvent[]).sort(
  (a, b) => ORDER[a] - ORDER[b],
);
