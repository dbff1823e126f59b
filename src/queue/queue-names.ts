/** Every queue of the service. A queue without a processor fails the start (see QueueModule). */
export enum QueueName {
  DomainEvents = 'domain-events',
  MissedChats = 'missed-chats',
  WebhookDeliveries = 'webhook-deliveries',
  LoginCodeMail = 'login-code-mail',
}

/** The payload of a domain-events job: one committed outbox row. */
export interface DomainEventJob {
  outboxId: string;
  eventType: string;
  organizationId: string | null;
  payload: Record<string, unknown>;
  occurredAt: string;
}

/** A conversation to mark `missed` if it is still waiting when the job comes due. */
export interface MissedChatJob {
  organizationId: string;
  conversationId: string;
}

/** One attempt of a webhook delivery (the delivery row holds everything else). */
export interface WebhookDeliveryJob {
  deliveryId: string;
  /** Its endpoint, so a busy endpoint is seen before any database work (absent in older jobs). */
  endpointId?: string;
}

/** A visitor's one-time login code to mail; the code travels sealed (SecretBox), never in clear. */
export interface LoginCodeMailJob {
  codeId: string;
  to: string;
  name: string | null;
  sealedCode: string;
}
