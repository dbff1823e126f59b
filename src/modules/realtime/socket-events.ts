/**
 * The Socket.IO events of `/agent` and `/widget`, typed once (issue 32): the server's pushes
 * (`RealtimeService`) and the gateways' answers take these types, and the dashboard and the
 * widget import them (`import type`, through a relative path their tsconfigs reach), so a payload
 * changed here or on the server fails the other side's typecheck.
 *
 * Pure types: no runtime import, no decorator, nothing the web apps' compiler options reject.
 * Payloads that are an OpenAPI schema (a chat message, a label, a ticket's status) are that
 * schema, from the generated `web/shared/api/schema.d.ts` (`npm run openapi`).
 */
import type { components } from '../../../web/shared/api/schema.js';

type Schemas = components['schemas'];

/** `message.created` (both namespaces) and each message of a `sync` answer. */
export type ChatMessagePush = Schemas['ChatMessageDto'];

export type ConversationStatus = Schemas['AgentConversationDetailDto']['status'];

/** `conversation.updated`: a conversation's new status or assignee. */
export interface ConversationUpdatePush {
  conversation_id: number;
  status: ConversationStatus;
  assigned_agent_id: number | null;
  closed_at: string | null;
  /** Only in the agents' pushes of a snooze or its wake-up. */
  snoozed_until?: string | null;
}

/** `typing`: one side of the conversation is (or stopped) typing. */
export interface TypingPush {
  conversation_id: number;
  sender_type: 'visitor' | 'agent';
  is_typing: boolean;
}

/** `read`: one side read the conversation up to `message_id`. */
export interface ReadPush {
  conversation_id: number;
  reader: 'visitor' | 'agent';
  message_id: number;
}

/** `visitor.page` (agents): the host page a visitor moved to. */
export interface VisitorPagePush {
  visitor_id: number;
  url: string;
  title: string | null;
}

/** `conversation.labels` (agents): a conversation's labels after a change. */
export interface ConversationLabelsPush {
  conversation_id: number;
  labels: Schemas['InboxLabelDto'][];
}

/** `ticket.created` and `ticket.updated` (agents): a new or changed ticket. */
export interface TicketPush {
  ticket_id: number;
  ticket_number: string;
  subject: string;
  status: Schemas['AgentTicketDto']['status'];
  priority: Schemas['AgentTicketDto']['priority'];
  assigned_agent_id: number | null;
  /** Filed, its status, priority or assignee changed, or a comment added. */
  change: 'created' | 'updated' | 'commented';
  /** The member who did it (an API key's acting agent too); null for a customer or the system. */
  by_user_id: number | null;
  by_customer: boolean;
}

/** `appointment.booked` (agents): a visitor booked an appointment. */
export interface AppointmentBookedPush {
  appointment_id: number;
  visitor_id: number;
}

/** What the server pushes on `/agent` (every agent of the organization). */
export interface AgentPushes {
  'message.created': ChatMessagePush;
  'conversation.updated': ConversationUpdatePush;
  'conversation.labels': ConversationLabelsPush;
  typing: TypingPush;
  read: ReadPush;
  'visitor.page': VisitorPagePush;
  'ticket.created': TicketPush;
  'ticket.updated': TicketPush;
  'appointment.booked': AppointmentBookedPush;
}

/** What the server pushes on `/widget` (one visitor, or every widget of the organization). */
export interface WidgetPushes {
  'message.created': ChatMessagePush;
  'conversation.updated': ConversationUpdatePush;
  typing: TypingPush;
  read: ReadPush;
  'agents.availability': { agents_online: boolean };
  /** The visitor was erased (an owner's privacy action): the session is over. */
  'visitor.erased': { visitor_id: number };
}

/** Events both namespaces carry, with one payload for both (`RealtimeService.toBothSides`). */
export type SharedEvent = keyof AgentPushes & keyof WidgetPushes;

/** A handler's acknowledgement: `{ status: true, ... }` or the error in the HTTP shape. */
export interface Ack<T = undefined> {
  status: boolean;
  data?: T;
  error_code?: string;
  message?: string;
  /** The domain slug of the error (`ERROR_REASONS`), which the apps show from their catalogs. */
  error_reason?: string;
  errors?: Record<string, string[]>;
  /** The slug of each text of `errors`, in the same order. */
  field_reasons?: Record<string, string[]>;
}

/** What a widget sends on `/widget`, and what each answers (`data`). */
export interface WidgetRequests {
  message: { payload: { body: string; attachment_ids?: number[] }; answer: ChatMessagePush };
  typing: { payload: { is_typing: boolean }; answer: undefined };
  read: { payload: { conversation_id: number; message_id: number }; answer: undefined };
  sync: { payload: { after_id: number }; answer: ChatMessagePush[] };
  page: { payload: { url: string; title?: string; referrer?: string }; answer: undefined };
}

/** What the dashboard sends on `/agent`, and what each answers (`data`). */
export interface AgentRequests {
  typing: { payload: { conversation_id: number; is_typing: boolean }; answer: undefined };
  read: { payload: { conversation_id: number; message_id: number }; answer: undefined };
  sync: { payload: { after_id: number }; answer: ChatMessagePush[] };
}

/** A push map as socket.io-client's listener map (`Socket<Listeners<WidgetPushes>, ...>`). */
export type Listeners<M> = { [E in keyof M]: (payload: M[E]) => void };

/** A request map as socket.io-client's emitter map: the payload, then the acknowledgement. */
export type Emitters<M extends { [E in keyof M]: { payload: unknown; answer: unknown } }> = {
  [E in keyof M]: (payload: M[E]['payload'], ack?: (answer: Ack<M[E]['answer']>) => void) => void;
};
