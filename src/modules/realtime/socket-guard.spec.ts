import { EventEmitter } from 'node:events';
import type { Socket } from 'socket.io';
import type { Answer } from './socket-answers';
import { guardSocket, type SocketGuardOptions } from './socket-guard';

type Middleware = (packet: unknown[], next: (error?: Error) => void) => void;

/** Just what guardSocket touches of a Socket.IO socket. */
class FakeSocket extends EventEmitter {
  connected = true;
  readonly middlewares: Middleware[] = [];
  use(fn: Middleware) {
    this.middlewares.push(fn);
    return this;
  }
  disconnect() {
    this.connected = false;
    this.emit('disconnect');
    return this;
  }
  /** Runs one incoming event through the middleware: whether it reached the handler, and the ack. */
  event(name: string): Promise<{ handled: boolean; answer?: Answer }> {
    return new Promise((resolve) => {
      const ack = (answer: Answer) => resolve({ handled: false, answer });
      this.middlewares[0]([name, {}, ack], (error) => resolve({ handled: !error }));
    });
  }
}

const guard = (overrides: Partial<SocketGuardOptions> = {}) => {
  const socket = new FakeSocket();
  guardSocket(socket as unknown as Socket, {
    perSecond: 1,
    burst: 2,
    stillValid: () => Promise.resolve(true),
    endsAt: () => Promise.resolve(new Date(Date.now() + 3_600_000)),
    initialEnd: new Date(Date.now() + 3_600_000),
    ...overrides,
  });
  return socket;
};

describe('guardSocket', () => {
  it('lets a burst through, then answers rate_limited without handling the event', async () => {
    const socket = guard();
    expect(await socket.event('typing')).toEqual({ handled: true });
    expect(await socket.event('typing')).toEqual({ handled: true });
    const refused = await socket.event('typing');
    expect(refused).toEqual({
      handled: false,
      answer: {
        status: false,
        error_code: 'rate_limited',
        message: 'Too Many Attempts.',
        error_reason: 'too_many_attempts',
        retry_after: 1,
      },
    });
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });

  it('answers unauthenticated and closes the socket once its principal is gone', async () => {
    let valid = true;
    const socket = guard({ stillValid: () => Promise.resolve(valid) });
    expect(await socket.event('sync')).toEqual({ handled: true });
    valid = false;
    expect(await socket.event('sync')).toEqual({
      handled: false,
      answer: { status: false, error_code: 'unauthenticated', message: 'Unauthenticated.' },
    });
    expect(socket.connected).toBe(false);
  });

  it('closes the socket when its session runs out, after asking once more', async () => {
    const socket = guard({
      initialEnd: new Date(Date.now() + 100),
      endsAt: () => Promise.resolve(undefined),
    });
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    await closed;
    expect(socket.connected).toBe(false);
  });

  it('keeps a socket whose session was extended meanwhile', async () => {
    let asked = 0;
    const socket = guard({
      initialEnd: new Date(Date.now() + 50),
      endsAt: () => {
        asked += 1;
        return Promise.resolve(new Date(Date.now() + 3_600_000));
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toBe(1);
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });
});
