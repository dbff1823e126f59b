import type { IncomingMessage } from 'node:http';
import type { RequestObserver } from '../logging/http-logger';
import type { MetricsRegistry } from './metrics-registry';

/**
 * The route template Express matched (`/api/agent/conversations/:conversation`), never the path:
 * the label's values are the routes, not the ids in them. Static files, the dashboard's page and
 * unknown paths match no route and share `other`.
 */
export function routeTemplate(req: IncomingMessage): string {
  const { route, baseUrl } = req as IncomingMessage & {
    route?: { path?: unknown };
    baseUrl?: string;
  };
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : 'other';
}

/** The request histogram's observer, or none when metrics are off (no cost per request). */
export function requestObserver(metrics: MetricsRegistry): RequestObserver | undefined {
  if (!metrics.enabled) return undefined;
  return (req, res, ms) =>
    metrics.observeRequest(req.method ?? 'GET', routeTemplate(req), res.statusCode, ms / 1000);
}
