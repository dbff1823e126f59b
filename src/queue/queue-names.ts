/** Every queue of the service. A queue without a processor fails the start (see QueueModule). */
export enum QueueName {
  MissedChats = 'missed-chats',
  WebhookDeliveries = 'webhook-deliveries',
  OutgoingMail = 'outgoing-mail',
  ConversationMail = 'conversation-mail',
  AgentNotifications = 'agent-notifications',
  AuditRetention = 'audit-retention',
  VisitorRetention = 'visitor-retention',
  MailRetention = 'mail-retention',
  ContentImport = 'content-import',
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

/** One agent's notifications about one conversation or ticket, mailed together when due. */
export interface AgentNotificationJob {
  organizationId: string;
  userId: string;
  conversationId?: string;
  ticketId?: string;
}

/** One import of a site's pages (the content_imports row holds the rest); `startedAt` names the run. */
export interface ContentImportJob {
  organizationId: string;
  siteId: string;
  startedAt: string;
}
