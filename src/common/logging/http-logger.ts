import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The correlation id of the request (X-Request-Id). */
    id: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const STARTED = Symbol('startedAt');
const LOGGED = Symbol('logged');

type TrackedResponse = ServerResponse & { [STARTED]: number; [LOGGED]?: boolean };

/** Told of every finished request (the metrics' histogram), with its duration in ms. */
export type RequestObserver = (req: IncomingMessage, res: ServerResponse, ms: number) => void;

/**
 * One structured line per request (id, method, path, status, duration): `request completed` at
 * info, `request failed` at error for a 5xx or a failed response. The correlation id comes from a
 * well-formed inbound `X-Request-Id` or is made here, and is echoed on the response.
 *
 * This is the line pino-http wrote, without its per-request child loggers: a request costs a
 * header and two listeners, and the line is only built when its level is enabled.
 */
export function httpLogger(logger: Logger, observe?: RequestObserver) {
  function finished(this: TrackedResponse, err?: Error): void {
    if (this[LOGGED]) return;
    this[LOGGED] = true;
    observe?.(this.req, this, Date.now() - this[STARTED]);
    const failed = err !== undefined || this.statusCode >= 500;
    const level = failed ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const req = this.req;
    const fields: Record<string, unknown> = {
      req: { id: req.id, method: req.method, path: (req.url ?? '').split('?')[0] },
      res: { status: this.statusCode },
    };
    if (failed) fields.err = err ?? new Error(`failed with status code ${this.statusCode}`);
    fields.duration_ms = Date.now() - this[STARTED];
    logger[level](fields, failed ? 'request failed' : 'request completed');
  }

  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const inbound = req.headers['x-request-id'];
    const id = typeof inbound === 'string' && REQUEST_ID.test(inbound) ? inbound : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    (res as TrackedResponse)[STARTED] = Date.now();
    // 'close' follows 'finish' on every response, and ends an aborted one too.
    res.on('close', finished);
    res.on('error', finished);
    next();
  };
}
