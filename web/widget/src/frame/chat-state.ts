import type { Schemas } from '../../../shared/api/client';

// The chat's state and every change to it, without a DOM: confirmed messages by id (a push, an
// ack and a catch-up of the same message show it once), the visitor's unsent messages, read
// positions and the conversation's status.
type MessageDto = Schemas['ChatMessageDto'];

/**
 * A message as the chat keeps it: the server's `ChatMessageDto` fields the widget reads (the
 * generated type), those it may lack (a message the widget made itself) optional, and
 * `attachments` as the server sent them, checked item by item before they are shown.
 */
export type Message = Pick<
  MessageDto,
  'id' | 'conversation_id' | 'body' | 'sender_type' | 'created_at'
> &
  Partial<Pick<MessageDto, 'sender_name' | 'sender_avatar_url' | 'actions' | 'type'>> & {
    attachments: Record<string, unknown>[];
  };

/** The agent who last wrote in the chat, to name in the header; undefined before any agent has. */
export function answeringAgent(
  state: ChatState,
): { name: string; avatarUrl: string | null } | undefined {
  const last = [...state.messages]
    .reverse()
    .find((m) => m.sender_type === 'agent' && m.sender_name);
  return last?.sender_name
    ? { name: last.sender_name, avatarUrl: last.sender_avatar_url ?? null }
    : undefined;
}

export interface PendingMessage {
  clientId: string;
  body: string;
  state: 'sending' | 'failed';
  /** Uploaded files sent with it (their ids, and names to show meanwhile). */
  attachmentIds?: number[];
  fileNames?: string[];
}

export interface ChatState {
  messages: Message[];
  pending: PendingMessage[];
  /** The visitor has seen every message up to this id. */
  readUpTo: number;
  /** The agents have read the visitor's messages up to this id. */
  agentReadUpTo: number;
  /** Closed conversations, and those the visitor rated. */
  closed: number[];
  rated: number[];
  agentTyping: boolean;
}

export type ChatAction =
  | { type: 'received'; messages: Message[] }
  | {
      type: 'sending';
      clientId: string;
      body: string;
      attachmentIds?: number[];
      fileNames?: string[];
    }
  | { type: 'sent'; clientId: string; message: Message }
  | { type: 'failed'; clientId: string }
  | { type: 'retrying'; clientId: string }
  | { type: 'discard'; clientId: string }
  | { type: 'read'; upTo: number }
  | { type: 'agent-read'; upTo: number }
  | { type: 'conversation'; conversationId: number; status: string }
  | { type: 'rated'; conversationId: number }
  | { type: 'typing'; isTyping: boolean }
  | { type: 'reset' };

export function initialChat(readUpTo = 0): ChatState {
  return {
    messages: [],
    pending: [],
    readUpTo,
    agentReadUpTo: 0,
    closed: [],
    rated: [],
    agentTyping: false,
  };
}

/** Adds messages not seen yet, keeping the list in id order. */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const known = new Set(current.map((m) => m.id));
  const fresh = incoming.filter((m) => !known.has(m.id) && known.add(m.id));
  if (fresh.length === 0) return current;
  return [...current, ...fresh].sort((a, b) => a.id - b.id);
}

/**
 * The push of the visitor's own message can come before the ack of its send: the message it
 * confirms (same text, same number of files) replaces the oldest such unsent one at once, so
 * it is never shown twice meanwhile. The ack that follows finds nothing left to replace.
 */
function settlePending(pending: PendingMessage[], incoming: Message[]): PendingMessage[] {
  let rest = pending;
  for (const m of incoming) {
    if (m.sender_type !== 'visitor') continue;
    const index = rest.findIndex(
      (p) =>
        p.state === 'sending' &&
        p.body.trim() === m.body.trim() &&
        (p.attachmentIds?.length ?? 0) === m.attachments.length,
    );
    if (index >= 0) rest = rest.filter((_, i) => i !== index);
  }
  return rest;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'received': {
      const messages = mergeMessages(state.messages, action.messages);
      const fromAgent = action.messages.some((m) => m.sender_type !== 'visitor');
      const pending = settlePending(state.pending, action.messages);
      return messages === state.messages && !fromAgent && pending === state.pending
        ? state
        : { ...state, messages, pending, agentTyping: fromAgent ? false : state.agentTyping };
    }
    case 'sending':
      return {
        ...state,
        pending: [
          ...state.pending,
          {
            clientId: action.clientId,
            body: action.body,
            state: 'sending',
            ...(action.attachmentIds?.length
              ? { attachmentIds: action.attachmentIds, fileNames: action.fileNames }
              : {}),
          },
        ],
      };
    case 'sent':
      return {
        ...state,
        pending: state.pending.filter((p) => p.clientId !== action.clientId),
        messages: mergeMessages(state.messages, [action.message]),
      };
    case 'failed':
    case 'retrying':
      return {
        ...state,
        pending: state.pending.map((p) =>
          p.clientId === action.clientId
            ? { ...p, state: action.type === 'failed' ? 'failed' : 'sending' }
            : p,
        ),
      };
    case 'discard':
      return { ...state, pending: state.pending.filter((p) => p.clientId !== action.clientId) };
    case 'read':
      return action.upTo > state.readUpTo ? { ...state, readUpTo: action.upTo } : state;
    case 'agent-read':
      return action.upTo > state.agentReadUpTo ? { ...state, agentReadUpTo: action.upTo } : state;
    case 'conversation':
      if (action.status === 'closed') {
        return state.closed.includes(action.conversationId)
          ? state
          : { ...state, closed: [...state.closed, action.conversationId], agentTyping: false };
      }
      return state.closed.includes(action.conversationId)
        ? { ...state, closed: state.closed.filter((id) => id !== action.conversationId) }
        : state;
    case 'rated':
      return { ...state, rated: [...state.rated, action.conversationId] };
    case 'typing':
      return state.agentTyping === action.isTyping
        ? state
        : { ...state, agentTyping: action.isTyping };
    case 'reset':
      return initialChat();
  }
}

/** Messages from the other side the visitor has not seen yet. */
export function unreadCount(state: ChatState): number {
  return state.messages.filter((m) => m.sender_type !== 'visitor' && m.id > state.readUpTo).length;
}

/** The conversation the visitor is in: the newest one with a message, else the one from init. */
export function currentConversation(state: ChatState, fromInit: number): number {
  const last = state.messages.at(-1)?.conversation_id ?? 0;
  return Math.max(last, fromInit);
}

/** The closed conversation that still waits for the visitor's rating, if any. */
export function awaitingRating(state: ChatState, conversationId: number): boolean {
  return (
    state.closed.includes(conversationId) &&
    !state.rated.includes(conversationId) &&
    state.messages.some((m) => m.conversation_id === conversationId)
  );
}

/** Whether the pre-chat form must be filled before (delay 0) or after `delay` minutes of chat. */
export function preChatDue(options: {
  enabled: boolean;
  submitted: boolean;
  delayMinutes: number;
  chatStartedAt: number;
  now: number;
}): boolean {
  if (!options.enabled || options.submitted) return false;
  if (options.delayMinutes <= 0) return true;
  if (!options.chatStartedAt) return false;
  return options.now - options.chatStartedAt >= options.delayMinutes * 60_000;
}

/**
 * What the chat shows below its messages, from who is there and what the visitor did (DESIGN
 * section 9, "the widget never refuses a message"). Nobody there means no agent online or
 * outside the site's business hours. The ticket form shows only where the site chose it and
 * only before a conversation is going on, so a late or flapping `agents.availability` never
 * takes the message box away from a chat under way; one form at a time (the ticket form asks
 * for the name and email itself, else a due pre-chat form); "Get notified by email" is asked
 * once, after the visitor wrote while nobody was there, when the address is not known.
 */
export function chatSurface(input: {
  agentsOnline: boolean;
  withinBusinessHours: boolean;
  offlineMode: string;
  inConversation: boolean;
  closed: boolean;
  preChatDue: boolean;
  emailKnown: boolean;
  emailAsked: boolean;
}): { away: boolean; form: 'offline' | 'pre-chat' | undefined; askEmail: boolean } {
  const away = !(input.agentsOnline && input.withinBusinessHours);
  const ticketForm =
    away && input.offlineMode === 'ticket_form' && (!input.inConversation || input.closed);
  const form = ticketForm ? 'offline' : input.preChatDue ? 'pre-chat' : undefined;
  const askEmail =
    away &&
    !form &&
    input.inConversation &&
    !input.closed &&
    !input.emailKnown &&
    !input.emailAsked;
  return { away, form, askEmail };
}
