import type { DomainEventType } from './catalogue';

/** The classes that subscribe to domain events, and where each lives (under `src/modules`). */
export const CONSUMERS = {
  WebhookDispatcher: 'webhooks/webhook-dispatcher.ts',
  MissedChatsScheduler: 'conversations/missed-chats.scheduler.ts',
  AssignmentService: 'assignment/assignment.service.ts',
  VisitorRecordsService: 'account-login/visitor-records.service.ts',
  ConversationMailScheduler: 'conversation-mail/conversation-mail.scheduler.ts',
  TicketMailService: 'email-inboxes/ticket-mail.service.ts',
} as const;
export type Consumer = keyof typeof CONSUMERS;

/**
 * Who consumes each event: read from the publisher's side, without running the app. It is kept
 * true both ways: `OutboxService.subscribe` takes only a consumer this table names for the event
 * (at compile time and again at run time), and an instance that runs workers refuses to start
 * while a consumer named here has not subscribed.
 */
export const SUBSCRIPTIONS = {
  'conversation.started': ['WebhookDispatcher', 'MissedChatsScheduler', 'AssignmentService'],
  'message.received': ['WebhookDispatcher', 'VisitorRecordsService'],
  'message.sent': ['WebhookDispatcher', 'ConversationMailScheduler'],
  'chat.missed': ['WebhookDispatcher'],
  'chat.closed': ['WebhookDispatcher', 'AssignmentService'],
  'ticket.created': ['WebhookDispatcher'],
  'ticket.assigned': ['WebhookDispatcher'],
  'ticket.status_changed': ['WebhookDispatcher'],
  'ticket.priority_changed': ['WebhookDispatcher'],
  'ticket.comment_added': ['WebhookDispatcher', 'TicketMailService'],
  'review.submitted': ['WebhookDispatcher'],
  // On record only: nothing reacts to it yet.
  'conversation.assigned': [],
  'agent.online': ['AssignmentService'],
} as const satisfies { [T in DomainEventType]: readonly Consumer[] };

/** A consumer the table names for every one of the events `T` (one event, or several at once). */
export type ConsumerOf<T extends DomainEventType> = (
  T extends DomainEventType ? (listed: (typeof SUBSCRIPTIONS)[T][number]) => void : never
) extends (listed: infer Common) => void
  ? Common
  : never;
