import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open: longer than the idle timeouts of the
 * balancers and clients in front (60 s for nginx's upstream `keepalive_timeout`, AWS's ALB and
 * Google's), so the side that closes an idle connection is the client. Node's default is 5 s:
 * a client reusing a connection at that moment sends its request into a socket the server is
 * closing and gets `ECONNRESET` (seen in CI: a login through Playwright's request context).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepIdleConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's docs: above the keep-alive timeout, else a slow next request's headers race it.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
