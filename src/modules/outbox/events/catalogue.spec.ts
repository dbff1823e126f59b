import type { agentEvents } from '../../agents/agent-events';
import type { appointmentEvents } from '../../appointments/appointment-events';
import { conversationEvents } from '../../conversations/conversation-events';
import type { ConversationRow } from '../../conversations/conversations.repository';
import type { MessageRecord } from '../../messages/messages.service';
// Types only: the ticket builders use the DTO mappers, which load Nest (ESM, not loadable here).
import type { ticketEvents } from '../../tickets/ticket-events';
import type { privacyEvents } from '../../privacy/privacy-events';
import { knowledgeBaseEvents } from '../../knowledge-base/knowledge-base-events';
import type { DomainEvent } from '../domain-event';
import { Subscribers } from './subscribers';
import {
  DOMAIN_EVENTS,
  type DomainEventPayloads,
  type DomainEventType,
  INTERNAL_EVENTS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from './catalogue';
import { CONSUMERS, SUBSCRIPTIONS } from './subscriptions';

const conversation: ConversationRow = {
  id: '31',
  site_id: '4',
  visitor_id: '77',
  status: 'waiting',
  type: 'chat',
  locale: null,
  assigned_agent_id: '9',
  started_at: new Date('2026-05-01T10:00:00.000Z'),
  closed_at: null,
  closed_by_user_id: null,
  rating: null,
  review_comment: null,
  reviewed_at: null,
  snoozed_until: null,
  visitor_name: 'Vera',
  visitor_email: 'vera@example.com',
};
const attachment = {
  id: 12,
  file_name: 'invoice.pdf',
  content_type: 'application/pdf',
  size: 48213,
  url: 'https://chat.example.test/api/attachments/att_x',
};
const message: MessageRecord = {
  id: '501',
  conversationId: '31',
  senderType: 'agent',
  senderId: '9',
  body: 'Hello',
  type: 'text',
  attachments: [attachment],
  private: false,
  senderMismatch: false,
  actions: null,
  createdAt: new Date('2026-05-01T10:01:00.000Z'),
  senderName: 'Ada Agent',
  senderAvatarToken: null,
};
const closedAt = new Date('2026-05-01T11:00:00.000Z');

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The names the builders of a feature build (each builder makes one event). */
type BuiltBy<Builders extends Record<string, (...args: never[]) => DomainEvent>> = {
  [K in keyof Builders]: ReturnType<Builders[K]>['type'];
}[keyof Builders];
type Built =
  | BuiltBy<typeof conversationEvents>
  | BuiltBy<typeof ticketEvents>
  | BuiltBy<typeof agentEvents>
  | BuiltBy<typeof appointmentEvents>
  | BuiltBy<typeof privacyEvents>
  | BuiltBy<typeof knowledgeBaseEvents>;

/** An event without a builder, or a builder of a name the union does not have, fails to compile. */
const everyEventHasABuilder: Same<Built, DomainEventType> = true;

/** The conversation events built from the rows above (DESIGN section 6's payloads below). */
const BUILT = {
  'conversation.started': conversationEvents.started('2', conversation),
  'message.received': conversationEvents.messageReceived('2', conversation, message),
  'message.sent': conversationEvents.messageSent('2', conversation, message, '9'),
  'chat.missed': conversationEvents.missed('2', '31', conversation),
  'chat.closed': conversationEvents.closed('2', conversation, closedAt, '9'),
  'review.submitted': conversationEvents.reviewSubmitted('2', '31', { rating: 4, comment: null }),
  'conversation.assigned': conversationEvents.assigned('2', conversation, '9', null),
} satisfies { [T in DomainEventType]?: DomainEvent<T> };

// The union is the webhook list plus the internal list, and each name has exactly one payload.
const payloadsNameTheEvents: Same<keyof DomainEventPayloads, DomainEventType> = true;
const webhookHalfIsInTheUnion: Same<Extract<DomainEventType, WebhookEvent>, WebhookEvent> = true;

describe('domain events', () => {
  it('lists the thirteen webhook events and the internal ones once each', () => {
    expect(payloadsNameTheEvents && webhookHalfIsInTheUnion && everyEventHasABuilder).toBe(true);
    expect(WEBHOOK_EVENTS).toHaveLength(13);
    expect(new Set(DOMAIN_EVENTS).size).toBe(WEBHOOK_EVENTS.length + INTERNAL_EVENTS.length);
    expect(Object.keys(SUBSCRIPTIONS).sort()).toEqual([...DOMAIN_EVENTS].sort());
  });

  it('builds each event under its own name, for the organization, with organization_id first', () => {
    for (const [name, event] of Object.entries(BUILT)) {
      expect(event.type).toBe(name);
      expect(event.organizationId).toBe('2');
      expect(Object.entries(event.payload)[0]).toEqual(['organization_id', 2]);
    }
  });

  it('builds the conversation payloads', () => {
    const payloads = Object.fromEntries(
      Object.entries(BUILT).map(([name, event]) => [name, event.payload]),
    );
    expect(payloads['conversation.started']).toEqual({
      organization_id: 2,
      conversation: {
        id: 31,
        site_id: 4,
        visitor_id: 77,
        status: 'waiting',
        started_at: '2026-05-01T10:00:00.000Z',
      },
      visitor: { id: 77, name: 'Vera', email: 'vera@example.com' },
    });
    const sent = { id: 501, body: 'Hello', type: 'text', attachments: [attachment] };
    expect(payloads['message.received']).toEqual({
      organization_id: 2,
      conversation_id: 31,
      site_id: 4,
      message: sent,
    });
    expect(payloads['message.sent']).toEqual({
      organization_id: 2,
      conversation_id: 31,
      site_id: 4,
      message: { ...sent, sender_id: 9 },
    });
    expect(payloads['chat.missed']).toEqual({
      organization_id: 2,
      conversation_id: 31,
      site_id: 4,
      visitor_id: 77,
    });
    expect(payloads['review.submitted']).toEqual({
      organization_id: 2,
      conversation_id: 31,
      rating: 4,
      comment: null,
    });
    expect(payloads['conversation.assigned']).toEqual({
      organization_id: 2,
      conversation_id: 31,
      site_id: 4,
      assigned_agent_id: 9,
      previous_agent_id: null,
    });
  });

  it('builds kb.article_published with the article and its public address', () => {
    const published = knowledgeBaseEvents.published(
      '2',
      {
        id: '8',
        site_id: '4',
        locale: 'en',
        title: 'Reset your password',
        slug: 'reset-your-password',
        category_id: null,
        translation_of: '7',
        published_at: new Date('2026-05-01T10:00:00.000Z'),
      },
      'https://chat.example.test/help/wk_x/en/articles/reset-your-password',
    );
    expect(published.type).toBe('kb.article_published');
    expect(published.payload).toEqual({
      organization_id: 2,
      article: {
        id: 8,
        site_id: 4,
        locale: 'en',
        title: 'Reset your password',
        slug: 'reset-your-password',
        category_id: null,
        translation_of: 7,
        published_at: '2026-05-01T10:00:00.000Z',
        url: 'https://chat.example.test/help/wk_x/en/articles/reset-your-password',
      },
    });
  });

  it('builds chat.closed once for both sides: closed_by is the agent, or null for the visitor', () => {
    const common = { organization_id: 2, conversation_id: 31, site_id: 4 };
    expect(BUILT['chat.closed'].payload).toEqual({
      ...common,
      closed_at: '2026-05-01T11:00:00.000Z',
      closed_by: 9,
    });
    expect(conversationEvents.closed('2', conversation, closedAt, null).payload).toEqual({
      ...common,
      closed_at: '2026-05-01T11:00:00.000Z',
      closed_by: null,
    });
  });

  it('marks an automatic assignment with auto: true, and only that one', () => {
    const auto = conversationEvents.assigned('2', conversation, '9', null, { auto: true });
    expect(auto.payload).toEqual({ ...BUILT['conversation.assigned'].payload, auto: true });
    expect('auto' in BUILT['conversation.assigned'].payload).toBe(false);
  });

  it('types what publish takes: a wrong name or payload does not compile', () => {
    const publish = (...events: DomainEvent[]) => events.map((event) => event.type);
    const payload = BUILT['chat.closed'].payload;
    // @ts-expect-error: not an event name
    expect(publish({ type: 'chat.close', organizationId: '2', payload })).toEqual(['chat.close']);
    const missed = BUILT['chat.missed'].payload;
    // @ts-expect-error: chat.closed carries closed_at and closed_by
    publish({ type: 'chat.closed', organizationId: '2', payload: missed });
    expect(publish(BUILT['chat.closed'], BUILT['chat.missed'])).toEqual([
      'chat.closed',
      'chat.missed',
    ]);
  });
});

describe('subscriptions', () => {
  const noop = async () => undefined;

  it('names only known consumers', () => {
    for (const consumers of Object.values(SUBSCRIPTIONS)) {
      for (const consumer of consumers) expect(Object.keys(CONSUMERS)).toContain(consumer);
    }
  });

  it('refuses a consumer the table does not name for the event', () => {
    const outbox = new Subscribers();
    expect(() =>
      // @ts-expect-error: the table does not name MissedChatsScheduler for chat.closed
      outbox.add('chat.closed', 'MissedChatsScheduler', noop),
    ).toThrow('MissedChatsScheduler subscribes to chat.closed');
    expect(() =>
      // @ts-expect-error: one of the events does not name it (agent.online)
      outbox.add(['chat.closed', 'agent.online'], 'WebhookDispatcher', noop),
    ).toThrow('WebhookDispatcher subscribes to agent.online');
  });

  it('reports what the table names but nobody subscribed, and hands each event to its own', async () => {
    const outbox = new Subscribers();
    const seen: string[] = [];
    outbox.add(WEBHOOK_EVENTS, 'WebhookDispatcher', async (event) => {
      seen.push(event.type);
    });
    outbox.add('conversation.started', 'MissedChatsScheduler', noop);
    outbox.add('message.received', 'VisitorRecordsService', noop);
    outbox.add('message.received', 'AnswerBotService', noop);
    outbox.add('message.sent', 'ConversationMailScheduler', noop);
    outbox.add('ticket.comment_added', 'TicketMailService', noop);
    outbox.add(
      ['appointment.booked', 'appointment.status_changed'],
      'AppointmentMailService',
      noop,
    );
    outbox.add('chat.closed', 'TranscriptsService', noop);
    outbox.add(
      [
        'conversation.started',
        'conversation.assigned',
        'message.received',
        'chat.missed',
        'ticket.assigned',
        'ticket.comment_added',
      ],
      'AgentNotificationsSubscriber',
      noop,
    );
    expect(outbox.missing()).toEqual([
      'conversation.started: AssignmentService',
      'chat.closed: AssignmentService',
      'agent.online: AssignmentService',
    ]);
    outbox.add(['conversation.started', 'chat.closed', 'agent.online'], 'AssignmentService', noop);
    expect(outbox.missing()).toEqual([]);

    expect(outbox.handlersFor('ticket.created')).toHaveLength(1);
    expect(outbox.handlersFor('conversation.started')).toHaveLength(4);
    expect(outbox.handlersFor('chat.closed')).toHaveLength(3);
    expect(outbox.handlersFor('conversation.assigned')).toHaveLength(1);
    expect(outbox.handlersFor('review.submitted')).toHaveLength(1);
    expect(outbox.handlersFor('unknown.event')).toHaveLength(0);
    const record = { outboxId: '1', organizationId: '2', occurredAt: '2026-05-01T10:00:00.000Z' };
    for (const handler of outbox.handlersFor('chat.closed')) {
      await handler({ ...record, ...BUILT['chat.closed'] });
    }
    expect(seen).toEqual(['chat.closed']);
  });
});
