import type { QueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import { type ChatMessage, type ConversationDetail, keys, type UnreadCounts } from './queries';

/** `conversation.updated`: a conversation's new status or assignee. */
export interface ConversationUpdate {
  conversation_id: number;
  status: ConversationDetail['status'];
  assigned_agent_id: number | null;
  closed_at: string | null;
}

export interface TypingEvent {
  conversation_id: number;
  sender_type: 'visitor' | 'agent';
  is_typing: boolean;
}

export interface ReadEvent {
  conversation_id: number;
  reader: 'visitor' | 'agent';
  message_id: number;
}

interface AgentEvents {
  'message.created': ChatMessage;
  'conversation.updated': ConversationUpdate;
  typing: TypingEvent;
  read: ReadEvent;
  connected: boolean;
}

type Listener<E extends keyof AgentEvents> = (data: AgentEvents[E]) => void;

/**
 * The inbox's live channel: Socket.IO `/agent` on the session cookie. Every event lands in the
 * TanStack Query cache (the one store of server state); components that show passing things
 * (typing, read receipts, notifications) subscribe with `onAgentEvent`.
 */
class AgentChannel {
  private socket: Socket | undefined;
  private readonly listeners = new Map<keyof AgentEvents, Set<(data: never) => void>>();
  /** The highest message id seen: a reconnect asks `sync` for everything after it. */
  private lastMessageId = 0;

  start(queryClient: QueryClient): void {
    if (this.socket) return;
    const socket = io('/agent', { transports: ['websocket'], withCredentials: true });
    this.socket = socket;
    socket.on('connect', () => {
      this.emitLocal('connected', true);
      // The rooms are joined before `connect`: from here on every message is pushed. What came
      // before (a drop, or the lists fetched while the first connection was being made) is read.
      if (this.lastMessageId > 0) this.catchUp(queryClient);
      else void queryClient.invalidateQueries({ queryKey: keys.conversations });
    });
    socket.on('disconnect', () => this.emitLocal('connected', false));
    socket.on('message.created', (message: ChatMessage) => {
      applyMessage(queryClient, message);
      this.lastMessageId = Math.max(this.lastMessageId, message.id);
      this.emitLocal('message.created', message);
    });
    socket.on('conversation.updated', (update: ConversationUpdate) => {
      applyUpdate(queryClient, update);
      this.emitLocal('conversation.updated', update);
    });
    socket.on('typing', (event: TypingEvent) => this.emitLocal('typing', event));
    socket.on('read', (event: ReadEvent) => this.emitLocal('read', event));
  }

  stop(): void {
    this.socket?.disconnect();
    this.socket = undefined;
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Remembers a message id already shown (loaded over HTTP), so catch-up starts after it. */
  saw(messageId: number): void {
    this.lastMessageId = Math.max(this.lastMessageId, messageId);
  }

  typing(conversationId: number, isTyping: boolean): void {
    this.socket?.emit('typing', { conversation_id: conversationId, is_typing: isTyping });
  }

  read(conversationId: number, messageId: number): void {
    this.socket?.emit('read', { conversation_id: conversationId, message_id: messageId });
  }

  on<E extends keyof AgentEvents>(event: E, listener: Listener<E>): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return () => {
      set.delete(listener);
    };
  }

  private emitLocal<E extends keyof AgentEvents>(event: E, data: AgentEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as Listener<E>)(data);
  }

  /** After a drop: every message after the last one seen, then fresh lists. */
  private catchUp(queryClient: QueryClient): void {
    this.socket?.emit(
      'sync',
      { after_id: this.lastMessageId },
      (answer: { status: boolean; data?: ChatMessage[] }) => {
        for (const message of answer.data ?? []) {
          applyMessage(queryClient, message);
          this.lastMessageId = Math.max(this.lastMessageId, message.id);
        }
        void queryClient.invalidateQueries({ queryKey: keys.conversations });
      },
    );
  }
}

export const agentChannel = new AgentChannel();

/** A new message: appended to its open conversation, counted unread, the lists refreshed. */
function applyMessage(queryClient: QueryClient, message: ChatMessage): void {
  const { conversation_id: conversationId, ...rest } = message;
  queryClient.setQueryData<ConversationDetail>(keys.conversation(conversationId), (old) => {
    if (!old || old.messages.some((m) => m.id === message.id)) return old;
    return { ...old, messages: [...old.messages, rest] };
  });
  if (message.sender_type === 'visitor') {
    queryClient.setQueryData<UnreadCounts>(keys.unread, (old = {}) => ({
      ...old,
      [conversationId]: (old[conversationId] ?? 0) + 1,
    }));
  }
  void queryClient.invalidateQueries({ queryKey: keys.conversations });
}

function applyUpdate(queryClient: QueryClient, update: ConversationUpdate): void {
  queryClient.setQueryData<ConversationDetail>(keys.conversation(update.conversation_id), (old) =>
    old
      ? {
          ...old,
          status: update.status,
          assigned_agent_id: update.assigned_agent_id,
          closed_at: update.closed_at,
        }
      : old,
  );
  void queryClient.invalidateQueries({ queryKey: keys.conversations });
}
