// The chat's state and every change to it, without a DOM: confirmed messages by id (a push, an
// ack and a catch-up of the same message show it once), the visitor's unsent messages, read
// positions and the conversation's status.
export interface Message {
  id: number;
  conversation_id: number;
  body: string;
  sender_type: 'visitor' | 'agent' | 'bot' | 'system';
  created_at: string;
  attachments: Record<string, unknown>[];
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

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'received': {
      const messages = mergeMessages(state.messages, action.messages);
      const fromAgent = action.messages.some((m) => m.sender_type !== 'visitor');
      return messages === state.messages && !fromAgent
        ? state
        : { ...state, messages, agentTyping: fromAgent ? false : state.agentTyping };
    }
    case 'sending':
      return {
        ...state,
        pending: [
          ...state.pending,
          { clientId: action.clientId, body: action.body, state: 'sending' },
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

/** The newest confirmed message id: where a catch-up (`sync`) continues from. */
export function lastMessageId(state: ChatState): number {
  return state.messages.at(-1)?.id ?? 0;
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
