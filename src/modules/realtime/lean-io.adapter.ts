import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { defer, type Observable } from 'rxjs';
import type { Server, ServerOptions, Socket } from 'socket.io';

/** What `SOCKET_TRANSPORTS` allows. */
export type SocketTransport = 'websocket' | 'polling';

/**
 * Socket.IO as Nest's adapter runs it, but each gateway event is a plain listener on the socket.
 * Nest's own binding keeps an RxJS pipeline per event and socket for the socket's whole life
 * (`fromEvent`, `mergeMap`, `takeUntil` on a shared disconnect stream): with thousands of idle
 * widgets open that was a large part of each socket's memory (bench/README.md, bench:realtime).
 * What a handler returns is answered as before: an `{ event, data }` result is emitted, anything
 * else (but null or undefined) goes to the client's acknowledgement, a failure is logged. That Nest
 * binds handlers through `bindMessageHandlers` is pinned by test/e2e/framework-overrides.e2e-spec.ts.
 */
export class LeanIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly transports: SocketTransport[] = ['websocket', 'polling'],
  ) {
    super(app);
  }

  /** The gateways' options, with the transports the operator allows (SOCKET_TRANSPORTS). */
  override createIOServer(port: number, options?: ServerOptions): Server {
    return super.createIOServer(port, { ...options, transports: this.transports } as ServerOptions);
  }

  override bindMessageHandlers(
    socket: Socket,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    for (const { message, callback, isAckHandledManually } of handlers) {
      socket.on(message as string, (...args: unknown[]) => {
        // As rxjs' fromEvent hands them on: one argument as itself, several as an array.
        const { data, ack } = this.mapPayload(args.length === 1 ? args[0] : args) as {
          data: unknown;
          ack?: unknown;
        };
        defer(() => transform(callback(data, ack))).subscribe({
          next: (response) => {
            if (response === null || response === undefined) return;
            const event = response as { event?: string; data?: unknown };
            if (event.event) {
              socket.emit(event.event, event.data);
            } else if (!isAckHandledManually && typeof ack === 'function') {
              (ack as (answer: unknown) => void)(response);
            }
          },
          error: (error: unknown) => this.logger.error(error),
        });
      });
    }
  }
}
