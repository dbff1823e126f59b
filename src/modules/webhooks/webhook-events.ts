/** The twelve events an endpoint can subscribe to: the public half of the domain events. */
export { WEBHOOK_EVENTS, type WebhookEvent } from '../outbox/events/catalogue';

/** The event of a test delivery (`POST /api/agent/webhooks/{id}/test`). */
export const PING_EVENT = 'webhook.ping';
