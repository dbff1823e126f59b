import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { builtFile, NOT_BUILT, webPaths } from './web-assets';

/** Paths that are never the dashboard's: the API, health, real time, the widget's own and the help centers. */
const NOT_DASHBOARD = /^\/(api|health|metrics|status\.json|socket\.io|widget|demo|help)(\/|$|\.)/;

const DASHBOARD_CSP = [
  "default-src 'self'",
  "connect-src 'self' ws: wss:",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "media-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Mounts the built browser apps before the API routes: the versioned chunks (cached for a year),
 * and the dashboard's page for any other path a browser navigates to (`Accept: text/html`). A
 * request that asks for JSON at a path that does not exist still reaches the API's 404 envelope.
 */
export function mountBrowserApps(app: NestExpressApplication): void {
  const immutable = { immutable: true, maxAge: '365d', index: false, fallthrough: true } as const;
  app.useStaticAssets(webPaths.widgetAssets, { ...immutable, prefix: '/widget/assets/' });
  app.useStaticAssets(webPaths.dashboardAssets, { ...immutable, prefix: '/assets/' });
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (NOT_DASHBOARD.test(request.path)) return next();
    if (request.accepts(['json', 'html']) !== 'html') return next();
    const html = builtFile(`${webPaths.dashboard}/index.html`);
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'same-origin');
    response.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    response.status(html === undefined ? 503 : 200).type('html');
    response.send(html ?? NOT_BUILT);
  });
}
