import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { HealthService } from './modules/health/health.service';
import { RealtimeService } from './modules/realtime/realtime.service';

export interface ShutdownTiming {
  /** How long to keep serving with readiness failing (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
}

/**
 * A deploy's stop, in the order that loses nothing (DESIGN section 13, README "Scaling out"):
 *
 * 1. readiness answers 503 (`instance: stopping`) while everything else still works, for
 *    `drainMs`, so a balancer polling it stops sending requests here;
 * 2. the server stops listening and closes idle keep-alive connections; requests already
 *    received run to their end, and their connections close after the response;
 * 3. every socket's connection is dropped, which a Socket.IO client answers by reconnecting, now
 *    to another instance;
 * 4. once the last request has been answered, Nest's shutdown runs: the queue workers take no
 *    new job and finish or hand back the running ones, the outbox loop finishes the events it
 *    claimed, the heartbeat row goes, the database closes.
 *
 * Each phase is logged (`phase`) so an operator, and the graceful-deploy test, can follow it.
 */
export async function shutDownGracefully(
  app: NestExpressApplication,
  logger: Logger,
  timing: ShutdownTiming,
): Promise<void> {
  app.get(HealthService).markStopping();
  logger.info({ phase: 'not_ready', drain_ms: timing.drainMs }, 'readiness now fails');
  if (timing.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, timing.drainMs));

  const server: Server = app.getHttpServer();
  // Answers still to be sent close their connection instead of keeping it for another request.
  server.prependListener('request', (_request, response) => {
    response.shouldKeepAlive = false;
  });
  const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection whose request was already running when the server closed becomes
  // idle after its answer; closed then, rather than after the keep-alive timeout.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  logger.info({ phase: 'not_listening' }, 'no longer accepting connections');

  const sockets = app.get(RealtimeService).reconnectElsewhere();
  logger.info({ phase: 'sockets_closed', sockets }, 'sockets told to reconnect elsewhere');

  await requestsDone;
  clearInterval(sweep);
  logger.info({ phase: 'requests_done' }, 'every request received was answered');

  await app.close();
  logger.info({ phase: 'workers_stopped' }, 'jobs finished or handed back; connections closed');
}
