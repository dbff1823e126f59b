import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { ChatMessage } from '../../api/client';
import { connectWidget, type Ack, type WidgetSocket } from '../../api/socket';
import { CatchUpCursor } from '../../../../shared/catch-up';
import { chatReducer, initialChat, type Message, unreadCount } from '../../frame/chat-state';
import { toHost } from '../../frame/host';
import { session } from '../../frame/session';

export type Connection = 'connecting' | 'online' | 'reconnecting';

export interface HostPage {
  url: string;
  title: string;
  referrer: string;
}

const ACK_TIMEOUT_MS = 10_000;
/** After the server closed the socket: how long before asking again (a refusal means re-init). */
const SERVER_DROP_RETRY_MS = 1_000;
const TYPING_IDLE_MS = 2_500;
const AGENT_TYPING_MAX_MS = 8_000;

/** A message the visitor wrote that the server has not confirmed yet, in the order written. */
interface Outgoing {
  clientId: string;
  body: string;
  attachmentIds?: number[];
}

/** How one send ended: confirmed, refused for good, or cut off by the connection (kept). */
type Delivery = 'sent' | 'refused' | 'connection';

/**
 * The live chat over the `/widget` socket: catch-up (`sync`) after every (re)connect, pushes,
 * optimistic sends with retry, typing both ways, read receipts and the unread count the
 * launcher shows. Messages written while the connection is down stay "Sending…" in an outbox
 * and go out one by one, in order, once it is back (after the catch-up, which settles any the
 * server got before the drop, so none is sent twice).
 */
export function useChat(options: {
  token: string | undefined;
  /** Changes with every init answer: a fresh session means a fresh socket. */
  sessionKey: unknown;
  widgetKey: string;
  open: boolean;
  onRefused: () => void;
  onAgentsOnline: (online: boolean) => void;
  onErased: () => void;
  /** The host page the visitor is on (from the loader): told to the agents as it changes. */
  page?: HostPage;
}) {
  const { token, sessionKey, widgetKey, open, onRefused, onAgentsOnline, onErased, page } = options;
  const [state, dispatch] = useReducer(chatReducer, session.readUpTo(widgetKey), initialChat);
  const [connection, setConnection] = useState<Connection>('connecting');
  const socketRef = useRef<WidgetSocket | undefined>(undefined);
  const stateRef = useRef(state);
  stateRef.current = state;
  const handlers = useRef({ onRefused, onAgentsOnline, onErased });
  handlers.current = { onRefused, onAgentsOnline, onErased };
  const outbox = useRef<Outgoing[]>([]);
  const flushing = useRef(false);
  /** The messages seen: where a reconnect's catch-up starts (catch-up.ts). */
  const seen = useRef(new CatchUpCursor());

  /** Sends one message and says how it went; nothing is dispatched here. */
  const deliver = useCallback(async (socket: WidgetSocket, item: Outgoing): Promise<Delivery> => {
    const answer = (await socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck(
        'message',
        item.attachmentIds?.length
          ? { body: item.body, attachment_ids: item.attachmentIds }
          : { body: item.body },
      )
      .catch(() => undefined)) as (Ack<ChatMessage> & { error_code?: string }) | undefined;
    if (answer?.status && answer.data) {
      seen.current.saw(answer.data.id);
      dispatch({ type: 'sent', clientId: item.clientId, message: answer.data });
      return 'sent';
    }
    // No answer while the connection went, or a refused session: it waits for the next one.
    if (!socket.connected || answer?.error_code === 'unauthenticated') return 'connection';
    return 'refused';
  }, []);

  /** Sends the outbox in order while connected; stops (keeping the rest) when the link drops. */
  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      for (;;) {
        const socket = socketRef.current;
        const item = outbox.current[0];
        if (!socket?.connected || !item) return;
        // Settled meanwhile (the catch-up brought the message the server got before a drop).
        if (!stateRef.current.pending.some((p) => p.clientId === item.clientId)) {
          outbox.current.shift();
          continue;
        }
        const result = await deliver(socket, item);
        if (result === 'connection') return;
        outbox.current.shift();
        if (result === 'refused') dispatch({ type: 'failed', clientId: item.clientId });
      }
    } finally {
      flushing.current = false;
    }
  }, [deliver]);

  useEffect(() => {
    if (!token) return;
    const socket = connectWidget(token);
    socketRef.current = socket;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    let dropTimer: ReturnType<typeof setTimeout> | undefined;

    const catchUp = async () => {
      // Everything not seen yet, page by page until one comes back empty; known ids merge away.
      let after = seen.current.afterId;
      for (;;) {
        const answer = (await socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('sync', { after_id: after })
          .catch(() => undefined)) as Ack<Message[]> | undefined;
        const rows = (answer?.status ? answer.data : undefined) ?? [];
        if (rows.length === 0) return;
        for (const row of rows) seen.current.saw(row.id);
        dispatch({ type: 'received', messages: rows });
        stateRef.current = chatReducer(stateRef.current, {
          type: 'received',
          messages: rows,
        });
        after = rows[rows.length - 1].id;
      }
    };

    socket.on('connect', () => {
      setConnection('online');
      void catchUp().then(flush);
    });
    socket.on('disconnect', (reason) => {
      setConnection('reconnecting');
      // The server closed it (the token lapsed, the session or the site ended): socket.io does
      // not come back by itself then. Ask again; a refusal below gets a fresh init and token.
      if (reason === 'io server disconnect') {
        clearTimeout(dropTimer);
        dropTimer = setTimeout(() => socket.connect(), SERVER_DROP_RETRY_MS);
      }
    });
    socket.on('connect_error', () => {
      setConnection('reconnecting');
      // A refused token (expired, or the session is gone) needs a new init: the client gives
      // up on a refusal by itself (`active` false), while a network failure retries.
      if (!socket.active) handlers.current.onRefused();
    });
    socket.on('message.created', (message) => {
      seen.current.saw(message.id);
      dispatch({ type: 'received', messages: [message] });
      if (message.sender_type !== 'visitor') {
        toHost({
          type: 'message',
          message: {
            id: message.id,
            body: message.body,
            sender_type: message.sender_type,
            created_at: message.created_at,
          },
        });
      }
    });
    socket.on('conversation.updated', (update) =>
      dispatch({
        type: 'conversation',
        conversationId: update.conversation_id,
        status: update.status,
      }),
    );
    socket.on('typing', (event) => {
      if (event.sender_type === 'visitor') return;
      dispatch({ type: 'typing', isTyping: event.is_typing });
      clearTimeout(typingTimer);
      if (event.is_typing) {
        typingTimer = setTimeout(
          () => dispatch({ type: 'typing', isTyping: false }),
          AGENT_TYPING_MAX_MS,
        );
      }
    });
    socket.on('read', (event) => {
      if (event.reader === 'agent') dispatch({ type: 'agent-read', upTo: event.message_id });
    });
    socket.on('agents.availability', (event) =>
      handlers.current.onAgentsOnline(event.agents_online),
    );
    socket.on('visitor.erased', () => handlers.current.onErased());
    return () => {
      clearTimeout(typingTimer);
      clearTimeout(dropTimer);
      socket.disconnect();
      socketRef.current = undefined;
    };
  }, [token, sessionKey, flush]);

  // The agents' panel follows the visitor's page: on every change, and again on each connection.
  useEffect(() => {
    const socket = socketRef.current;
    if (!page || connection !== 'online' || !socket?.connected) return;
    socket.emit(
      'page',
      {
        url: page.url,
        ...(page.title ? { title: page.title } : {}),
        ...(page.referrer ? { referrer: page.referrer } : {}),
      },
      () => undefined,
    );
  }, [page, connection]);

  // The launcher's badge and the host page's `unread` event follow the count.
  const unread = unreadCount(state);
  useEffect(() => toHost({ type: 'unread', count: unread }), [unread]);

  // An open widget has read everything it shows: remember it and tell the agents.
  useEffect(() => {
    if (!open || unread === 0) return;
    const last = [...state.messages].reverse().find((m) => m.sender_type !== 'visitor');
    if (!last) return;
    dispatch({ type: 'read', upTo: last.id });
    session.saveReadUpTo(widgetKey, last.id);
    socketRef.current?.emit(
      'read',
      { conversation_id: last.conversation_id, message_id: last.id },
      () => undefined,
    );
  }, [open, unread, state.messages, widgetKey]);

  const send = useCallback(
    (body: string, files: { id: number; file_name: string }[] = []) => {
      const clientId = `c${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
      if (!session.firstMessageAt(widgetKey)) session.saveFirstMessageAt(widgetKey, Date.now());
      const attachmentIds = files.map((f) => f.id);
      const action = {
        type: 'sending' as const,
        clientId,
        body,
        attachmentIds,
        fileNames: files.map((f) => f.file_name),
      };
      dispatch(action);
      stateRef.current = chatReducer(stateRef.current, action);
      outbox.current.push({ clientId, body, ...(attachmentIds.length ? { attachmentIds } : {}) });
      void flush();
      stopTyping.current();
    },
    [flush, widgetKey],
  );

  const retry = useCallback(
    (clientId: string) => {
      const pending = stateRef.current.pending.find((p) => p.clientId === clientId);
      if (!pending) return;
      const action = { type: 'retrying' as const, clientId };
      dispatch(action);
      stateRef.current = chatReducer(stateRef.current, action);
      outbox.current.push({ clientId, body: pending.body, attachmentIds: pending.attachmentIds });
      void flush();
    },
    [flush],
  );

  // Typing: `true` once when the visitor starts, `false` after a pause or on send.
  const typingState = useRef<{ active: boolean; timer?: ReturnType<typeof setTimeout> }>({
    active: false,
  });
  const stopTyping = useRef(() => {
    const typing = typingState.current;
    clearTimeout(typing.timer);
    if (!typing.active) return;
    typing.active = false;
    socketRef.current?.emit('typing', { is_typing: false }, () => undefined);
  });
  const typed = useCallback(() => {
    const typing = typingState.current;
    if (!typing.active) {
      typing.active = true;
      socketRef.current?.emit('typing', { is_typing: true }, () => undefined);
    }
    clearTimeout(typing.timer);
    typing.timer = setTimeout(stopTyping.current, TYPING_IDLE_MS);
  }, []);

  return { state, dispatch, connection, send, retry, typed };
}
