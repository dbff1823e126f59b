import type { DomainEventType } from './catalogue';

/** The classes that subscribe to domain events, and where each lives (under `src/modules`). */
export const CONSUMERS = {
  WebhookDispatcher: 'webhooks/webhook-dispatcher.ts',
  MissedChatsScheduler: 'conversations/missed-chats.scheduler.ts',
  AssignmentService: 'assignment/assignment.service.ts',
  VisitorRecordsService: 'visitor-records/visitor-records.service.ts',
  ConversationMailScheduler: 'conversation-mail/conversation-mail.scheduler.ts',
  TicketMailService: 'email-inboxes/ticket-mail.service.ts',
  AppointmentMailService: 'appointment-mail/appointment-mail.service.ts',
  TranscriptsService: 'transcripts/transcripts.service.ts',
  AgentNotificationsSubscriber: 'agent-notifications/agent-notifications.subscriber.ts',
  AnswerBotService: 'answer-bot/answer-bot.service.ts',
} as const;
export type Consumer = keyof typeof CONSUMERS;

/**
 * Who consumes each event: read from the publisher's side, without running the app. It is kept
 * true both ways: `OutboxService.subscribe` takes only a consumer this table names for the event
 * (at compile time and again at run time), and an instance that runs workers refuses to start
 * while a consumer named here has not subscribed.
 */
export const SUBSCRIPTIONS = {
  'conversation.started': [
    'WebhookDispatcher',
    'MissedChatsScheduler',
    'AssignmentService',
    'AgentNotificationsSubscriber',
  ],
  'message.received': [
    'WebhookDispatcher',
    'VisitorRecordsService',
    'AgentNotificationsSubscriber',
    'AnswerBotService',
  ],
  'message.sent': ['WebhookDispatcher', 'ConversationMailScheduler'],
  'chat.missed': ['WebhookDispatcher', 'AgentNotificationsSubscriber'],
  'chat.closed': ['WebhookDispatcher', 'AssignmentService', 'TranscriptsService'],
  'ticket.created': ['WebhookDispatcher'],
  'ticket.assigned': ['WebhookDispatcher', 'AgentNotificationsSubscriber'],
  'ticket.status_changed': ['WebhookDispatcher'],
  'ticket.priority_changed': ['WebhookDispatcher'],
  'ticket.comment_added': [
    'WebhookDispatcher',
    'TicketMailService',
    'AgentNotificationsSubscriber',
  ],
  'review.submitted': ['WebhookDispatcher'],
  'visitor.erased': ['WebhookDispatcher'],
  'kb.article_published': ['WebhookDispatcher'],
  'conversation.assigned': ['AgentNotificationsSubscriber'],
  'agent.online': ['AssignmentService'],
  'appointment.booked': ['AppointmentMailService'],
  'appointment.status_changed': ['AppointmentMailService'],
} as const satisfies { [T in DomainEventType]: readonly Consumer[] };

/** A consumer the table names for every one of the events `T` (one event, or several at once). */
export type ConsumerOf<T extends DomainEventType> = (
  T extends DomainEventType ? (listed: (typeof SUBSCRIPTIONS)[T][number]) => void : never
) extends (listed: infer Common) => void
  ? Common
  : never;
