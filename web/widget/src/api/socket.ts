import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  Emitters,
  Listeners,
  WidgetPushes,
  WidgetRequests,
} from '../../../../src/modules/realtime/socket-events';

// The events and their payloads are the server's (typed once, issue 32).
export type { Ack };
export type ServerEvents = Listeners<WidgetPushes>;
export type ClientEvents = Emitters<WidgetRequests>;

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
