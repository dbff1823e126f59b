/** Every queue of the service. A queue without a processor fails the start (see QueueModule). */
export enum QueueName {
  MissedChats = 'missed-chats',
  WebhookDeliveries = 'webhook-deliveries',
  OutgoingMail = 'outgoing-mail',
  ConversationMail = 'conversation-mail',
}

/** A conversation to mark `missed` if it is still waiting when the job comes due. */
export interface MissedChatJob {
  organizationId: string;
  conversationId: string;
}

/** A delivery attempt of a WebhookDeliveryJob, with its endpoint (checked for a free slot first). */
export interface QueuedDelivery {
  deliveryId: string;
  endpointId: string;
}

/**
 * Webhook delivery attempts (the delivery rows hold everything else): the first attempts of one
 * event's deliveries together, or one delivery's next attempt. `deliveryId` alone is the shape of
 * jobs queued by earlier versions.
 */
export interface WebhookDeliveryJob {
  deliveries?: QueuedDelivery[];
  deliveryId?: string;
}

/** One mail of the mail log to send (the row holds the sealed content and the outcome). */
export interface OutgoingMailJob {
  organizationId: string;
  mailId: string;
}

/** A conversation whose agent replies may have to be mailed to the visitor (when due). */
export interface ConversationMailJob {
  organizationId: string;
  conversationId: string;
}
