import { io, type Socket } from 'socket.io-client';

/** A Socket.IO client that records every event, so a test can wait for one it expects. */
export interface TestSocket {
  socket: Socket;
  /** Resolves with the first event `name` (already received or coming) that `match` accepts. */
  next<T = Record<string, unknown>>(
    name: string,
    match?: (data: T) => boolean,
    ms?: number,
  ): Promise<T>;
  /** Every event `name` received so far. */
  received<T = Record<string, unknown>>(name: string): T[];
  ask<T = Record<string, unknown>>(name: string, payload?: unknown): Promise<T>;
  close(): void;
}

/** Connects to `namespace` of the app at `baseUrl` with `token`; rejects when refused. */
export function connect(
  baseUrl: string,
  namespace: '/widget' | '/agent',
  token: string,
  extra: { origin?: string } = {},
): Promise<TestSocket> {
  const socket = io(`${baseUrl}${namespace}`, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(extra.origin ? { extraHeaders: { origin: extra.origin } } : {}),
  });
  const events: { name: string; data: unknown; taken: boolean }[] = [];
  const waiters: {
    name: string;
    match: (data: unknown) => boolean;
    resolve: (data: unknown) => void;
  }[] = [];
  // For a timeout's message: whether the socket was still connected, and why it stopped.
  let disconnectReason: string | undefined;
  socket.on(
    'disconnect',
    (reason) => (disconnectReason = `${reason} at ${new Date().toISOString()}`),
  );
  socket.onAny((name: string, data: unknown) => {
    const waiter = waiters.findIndex((w) => w.name === name && w.match(data));
    if (waiter >= 0) {
      const [found] = waiters.splice(waiter, 1);
      events.push({ name, data, taken: true });
      found.resolve(data);
    } else events.push({ name, data, taken: false });
  });
  const client: TestSocket = {
    socket,
    next<T>(name: string, match: (data: T) => boolean = () => true, ms = 10_000): Promise<T> {
      const seen = events.find((e) => !e.taken && e.name === name && match(e.data as T));
      if (seen) {
        seen.taken = true;
        return Promise.resolve(seen.data as T);
      }
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no ${name} event within ${ms} ms on ${namespace} (${
                  socket.connected
                    ? 'still connected'
                    : `disconnected: ${disconnectReason ?? 'never connected'}`
                }; events seen: ${events.map((e) => e.name).join(', ') || 'none'})`,
              ),
            ),
          ms,
        );
        waiters.push({
          name,
          match: (data) => match(data as T),
          resolve: (data) => {
            clearTimeout(timer);
            resolve(data as T);
          },
        });
      });
    },
    received<T>(name: string): T[] {
      return events.filter((e) => e.name === name).map((e) => e.data as T);
    },
    ask<T>(name: string, payload?: unknown): Promise<T> {
      return socket.timeout(10_000).emitWithAck(name, payload) as Promise<T>;
    },
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(client));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}
