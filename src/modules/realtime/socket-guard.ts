import type { Socket } from 'socket.io';
import { tooManyAttempts } from '../../common/rate-limit/rate-limited';
import type { Answer } from './socket-answers';

/** setTimeout's ceiling is 2^31-1 ms; a far end is re-checked hourly instead. */
const LONGEST_WAIT_MS = 3_600_000;

export interface SocketGuardOptions {
  /** Token bucket: tokens added per second, and the most it holds (the allowed burst). */
  perSecond: number;
  burst: number;
  /** Whether the socket's principal still exists as it was when the socket opened. */
  stillValid: () => Promise<boolean>;
  /** When the principal's session ends if nothing changes; undefined once it has ended. */
  endsAt: () => Promise<Date | undefined>;
  /** The end known at the handshake. */
  initialEnd: Date;
}

/**
 * What every socket goes through after its handshake: each event takes a token from the
 * connection's bucket (else it is answered `rate_limited` and not handled), then re-checks the
 * principal (else it is answered `unauthenticated` and the socket closes); and the socket closes
 * by itself when its session runs out. Ending a session early (logout, removal, role change)
 * closes its sockets through their rooms; these checks cover what a room broadcast cannot.
 */
export function guardSocket(socket: Socket, options: SocketGuardOptions): void {
  let tokens = options.burst;
  let filledAt = Date.now();
  socket.use((packet, next) => {
    const reply: unknown = packet.length > 1 ? packet[packet.length - 1] : undefined;
    const ack = typeof reply === 'function' ? (reply as (answer: Answer) => void) : undefined;
    const now = Date.now();
    tokens = Math.min(options.burst, tokens + ((now - filledAt) / 1000) * options.perSecond);
    filledAt = now;
    if (tokens < 1) {
      const error = tooManyAttempts(((1 - tokens) / options.perSecond) * 1000);
      ack?.({
        status: false,
        error_code: error.code,
        message: error.message,
        error_reason: error.reason,
        retry_after: Number(error.headers?.['Retry-After'] ?? 1),
      });
      return;
    }
    tokens -= 1;
    options.stillValid().then(
      (valid) => {
        if (valid) return next();
        ack?.({ status: false, error_code: 'unauthenticated', message: 'Unauthenticated.' });
        socket.disconnect(true);
      },
      (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
    );
  });

  let timer: NodeJS.Timeout | undefined;
  const schedule = (end: Date) => {
    const wait = Math.min(Math.max(0, end.getTime() - Date.now()), LONGEST_WAIT_MS);
    timer = setTimeout(() => {
      options.endsAt().then(
        (next) => {
          if (!socket.connected) return;
          if (!next || next.getTime() <= Date.now()) socket.disconnect(true);
          else schedule(next);
        },
        () => schedule(new Date(Date.now() + 60_000)),
      );
    }, wait + 50);
    timer.unref();
  };
  schedule(options.initialEnd);
  socket.once('disconnect', () => clearTimeout(timer));
}
