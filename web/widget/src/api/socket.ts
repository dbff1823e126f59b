import { io, type Socket } from 'socket.io-client';
import type { ChatMessage } from './client';

export interface ServerEvents {
  'message.created': (message: ChatMessage) => void;
  'conversation.updated': (update: {
    conversation_id: number;
    status: string;
    closed_at: string | null;
  }) => void;
  typing: (event: { conversation_id: number; sender_type: string; is_typing: boolean }) => void;
  read: (event: { conversation_id: number; reader: string; message_id: number }) => void;
  'agents.availability': (event: { agents_online: boolean }) => void;
}

export interface Ack<T = Record<string, unknown>> {
  status: boolean;
  message?: string;
  data?: T;
}

export interface ClientEvents {
  message: (
    payload: { body: string; attachment_ids?: number[] },
    ack: (answer: Ack<ChatMessage>) => void,
  ) => void;
  typing: (payload: { is_typing: boolean }, ack: (answer: Ack) => void) => void;
  read: (payload: { conversation_id: number; message_id: number }, ack: (a: Ack) => void) => void;
  sync: (payload: { after_id: number }, ack: (answer: Ack<ChatMessage[]>) => void) => void;
}

export type WidgetSocket = Socket<ServerEvents, ClientEvents>;

/** The live channel (`/widget`), authenticated by the session token; reconnects by itself. */
export function connectWidget(token: string): WidgetSocket {
  return io(`${location.origin}/widget`, {
    auth: { token },
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
  });
}
