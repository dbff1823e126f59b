import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { ChatMessage } from '../../api/client';
import { connectWidget, type Ack, type WidgetSocket } from '../../api/socket';
import {
  chatReducer,
  initialChat,
  lastMessageId,
  type Message,
  unreadCount,
} from '../../frame/chat-state';
import { toHost } from '../../frame/host';
import { session } from '../../frame/session';

export type Connection = 'connecting' | 'online' | 'reconnecting';

const ACK_TIMEOUT_MS = 10_000;
const TYPING_IDLE_MS = 2_500;
const AGENT_TYPING_MAX_MS = 8_000;

/**
 * The live chat over the `/widget` socket: catch-up (`sync`) after every (re)connect, pushes,
 * optimistic sends with retry, typing both ways, read receipts and the unread count the
 * launcher shows.
 */
export function useChat(options: {
  token: string | undefined;
  widgetKey: string;
  open: boolean;
  onRefused: () => void;
  onAgentsOnline: (online: boolean) => void;
}) {
  const { token, widgetKey, open, onRefused, onAgentsOnline } = options;
  const [state, dispatch] = useReducer(chatReducer, session.readUpTo(widgetKey), initialChat);
  const [connection, setConnection] = useState<Connection>('connecting');
  const socketRef = useRef<WidgetSocket | undefined>(undefined);
  const stateRef = useRef(state);
  stateRef.current = state;
  const handlers = useRef({ onRefused, onAgentsOnline });
  handlers.current = { onRefused, onAgentsOnline };

  useEffect(() => {
    if (!token) return;
    const socket = connectWidget(token);
    socketRef.current = socket;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;

    const catchUp = async () => {
      // Everything after the newest message already shown, page by page; known ids merge away.
      for (;;) {
        const answer = (await socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('sync', { after_id: lastMessageId(stateRef.current) })
          .catch(() => undefined)) as Ack<Message[]> | undefined;
        const rows = (answer?.status ? answer.data : undefined) ?? [];
        if (rows.length === 0) return;
        const before = lastMessageId(stateRef.current);
        dispatch({ type: 'received', messages: rows });
        stateRef.current = chatReducer(stateRef.current, {
          type: 'received',
          messages: rows,
        });
        if (rows.length < 200 || lastMessageId(stateRef.current) === before) return;
      }
    };

    socket.on('connect', () => {
      setConnection('online');
      void catchUp();
    });
    socket.on('disconnect', () => setConnection('reconnecting'));
    socket.on('connect_error', () => {
      setConnection('reconnecting');
      // A refused token (expired, or the session is gone) needs a new init: the client gives
      // up on a refusal by itself (`active` false), while a network failure retries.
      if (!socket.active) handlers.current.onRefused();
    });
    socket.on('message.created', (message) => {
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
    return () => {
      clearTimeout(typingTimer);
      socket.disconnect();
      socketRef.current = undefined;
    };
  }, [token]);

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

  const deliver = useCallback((clientId: string, body: string, attachmentIds?: number[]) => {
    const socket = socketRef.current;
    if (!socket) return dispatch({ type: 'failed', clientId });
    socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck(
        'message',
        attachmentIds?.length ? { body, attachment_ids: attachmentIds } : { body },
      )
      .then((answer: Ack<ChatMessage>) => {
        if (answer.status && answer.data) {
          dispatch({ type: 'sent', clientId, message: answer.data });
        } else dispatch({ type: 'failed', clientId });
      })
      .catch(() => dispatch({ type: 'failed', clientId }));
  }, []);

  const send = useCallback(
    (body: string, files: { id: number; file_name: string }[] = []) => {
      const clientId = `c${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
      if (!session.firstMessageAt(widgetKey)) session.saveFirstMessageAt(widgetKey, Date.now());
      const attachmentIds = files.map((f) => f.id);
      dispatch({
        type: 'sending',
        clientId,
        body,
        attachmentIds,
        fileNames: files.map((f) => f.file_name),
      });
      deliver(clientId, body, attachmentIds);
      stopTyping.current();
    },
    [deliver, widgetKey],
  );

  const retry = useCallback(
    (clientId: string) => {
      const pending = stateRef.current.pending.find((p) => p.clientId === clientId);
      if (!pending) return;
      dispatch({ type: 'retrying', clientId });
      deliver(clientId, pending.body, pending.attachmentIds);
    },
    [deliver],
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
