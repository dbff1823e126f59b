import type { QueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  AgentPushes,
  AgentRequests,
  AppointmentBookedPush,
  ConversationUpdatePush,
  Emitters,
  Listeners,
  ReadPush,
  TicketPush,
  TypingPush,
  VisitorPagePush,
} from '../../../../src/modules/realtime/socket-events';
import { CatchUpCursor } from '../../../shared/catch-up';
import { type ChatMessage, type ConversationDetail, type UnreadCounts } from './queries';
import { keys } from './keys';

// The events and their payloads are the server's (typed once, issue 32).
export type {
  AppointmentBookedPush as AppointmentBooked,
  ConversationUpdatePush as ConversationUpdate,
  ReadPush as ReadEvent,
  TicketPush,
  TypingPush as TypingEvent,
  VisitorPagePush as VisitorPageEvent,
};

/** What listeners hear: the server's pushes on `/agent`, and the link going up or down. */
interface AgentEvents extends AgentPushes {
  connected: boolean;
}

type AgentSocket = Socket<Listeners<AgentPushes>, Emitters<AgentRequests>>;

/** After the server closed the socket: how long before asking again. */
const SERVER_DROP_RETRY_MS = 1_000;
const ACK_TIMEOUT_MS = 10_000;

type Listener<E extends keyof AgentEvents> = (data: AgentEvents[E]) => void;

/**
 * The inbox's live channel: Socket.IO `/agent` on the session cookie. Every event lands in the
 * TanStack Query cache (the one store of server state); components that show passing things
 * (typing, read receipts, notifications) subscribe with `onAgentEvent`.
 */
class AgentChannel {
  private socket: AgentSocket | undefined;
  private readonly listeners = new Map<keyof AgentEvents, Set<(data: never) => void>>();
  /** The messages seen: where a reconnect's `sync` starts, and which answers are new. */
  private readonly seen = new CatchUpCursor();

  start(queryClient: QueryClient): void {
    if (this.socket) return;
    const socket: AgentSocket = io('/agent', { transports: ['websocket'], withCredentials: true });
    this.socket = socket;
    socket.on('connect', () => {
      this.emitLocal('connected', true);
      // The rooms are joined before `connect`: from here on every message is pushed. What came
      // before (a drop, or the lists fetched while the first connection was being made) is read.
      if (!this.seen.empty) void this.catchUp(queryClient);
      else void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
      // Tickets changed while the link was down: the lists and open tickets read again.
      void queryClient.invalidateQueries({ queryKey: keys.tickets.all });
      void queryClient.invalidateQueries({ queryKey: keys.tickets.details });
    });
    socket.on('disconnect', (reason) => {
      this.emitLocal('connected', false);
      // Closed by the server (the session was checked and refused): socket.io does not come back
      // by itself then. Ask again shortly; a session that really ended is refused at the door.
      if (reason === 'io server disconnect') {
        setTimeout(() => {
          if (this.socket === socket) socket.connect();
        }, SERVER_DROP_RETRY_MS);
      }
    });
    socket.on('message.created', (message) => {
      this.seen.saw(message.id);
      applyMessage(queryClient, message);
      this.emitLocal('message.created', message);
    });
    socket.on('conversation.updated', (update) => {
      applyUpdate(queryClient, update);
      this.emitLocal('conversation.updated', update);
    });
    for (const name of ['ticket.created', 'ticket.updated'] as const) {
      socket.on(name, (push) => {
        void queryClient.invalidateQueries({ queryKey: keys.tickets.all });
        void queryClient.invalidateQueries({ queryKey: keys.tickets.one(push.ticket_id) });
        this.emitLocal(name, push);
      });
    }
    socket.on('appointment.booked', (event) => {
      void queryClient.invalidateQueries({ queryKey: keys.appointments.all });
      this.emitLocal('appointment.booked', event);
    });
    socket.on('typing', (event) => this.emitLocal('typing', event));
    socket.on('visitor.page', (event) => this.emitLocal('visitor.page', event));
    socket.on('read', (event) => this.emitLocal('read', event));
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
    this.seen.saw(messageId);
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

  /** After a drop: every message not seen yet, page by page (catch-up.ts), then fresh lists. */
  private async catchUp(queryClient: QueryClient): Promise<void> {
    const socket = this.socket;
    let after = this.seen.afterId;
    for (;;) {
      const answer = socket?.connected
        ? ((await socket
            .timeout(ACK_TIMEOUT_MS)
            .emitWithAck('sync', { after_id: after })
            .catch(() => undefined)) as Ack<ChatMessage[]> | undefined)
        : undefined;
      // Pages until one comes back empty (or the link went again: the next connect goes on).
      const rows = answer?.data ?? [];
      if (rows.length === 0) break;
      for (const message of rows) {
        if (!this.seen.isNew(message.id)) continue;
        this.seen.saw(message.id);
        applyMessage(queryClient, message);
      }
      after = rows[rows.length - 1].id;
    }
    void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
  }
}

export const agentChannel = new AgentChannel();

/** A new message: appended to its open conversation, counted unread, the lists refreshed. */
function applyMessage(queryClient: QueryClient, message: ChatMessage): void {
  const { conversation_id: conversationId, ...rest } = message;
  queryClient.setQueryData<ConversationDetail>(keys.conversations.one(conversationId), (old) => {
    if (!old || old.messages.some((m) => m.id === message.id)) return old;
    return { ...old, messages: [...old.messages, rest] };
  });
  if (message.sender_type === 'visitor') {
    queryClient.setQueryData<UnreadCounts>(keys.unread.all, (old = {}) => ({
      ...old,
      [conversationId]: (old[conversationId] ?? 0) + 1,
    }));
  }
  void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
}

function applyUpdate(queryClient: QueryClient, update: ConversationUpdatePush): void {
  queryClient.setQueryData<ConversationDetail>(
    keys.conversations.one(update.conversation_id),
    (old) =>
      old
        ? {
            ...old,
            status: update.status,
            assigned_agent_id: update.assigned_agent_id,
            closed_at: update.closed_at,
            ...(update.snoozed_until !== undefined ? { snoozed_until: update.snoozed_until } : {}),
          }
        : old,
  );
  void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
}
