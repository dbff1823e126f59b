import { mountHelpCenter } from './modules/knowledge-base/help-center.routes';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module';
import { JsonExpressAdapter } from './common/http/json-express-adapter';
import { refuseUnreadableText } from './common/http/text-rule';
import { requestContext } from './common/http/request-context';
import { answerUnparsableRequests } from './common/http/client-error';
import { keepIdleConnectionsOpen } from './common/http/keep-alive';
import { buildOpenApiDocument } from './common/openapi/document';
import cors from 'cors';
import { httpLogger } from './common/logging/http-logger';
import { MetricsRegistry } from './common/metrics/metrics-registry';
import { requestObserver } from './common/metrics/request-observer';
import { LeanIoAdapter, type SocketTransport } from './modules/realtime/lean-io.adapter';
import { RedisIoAdapter } from './modules/realtime/redis-io.adapter';
import { PinoNestLogger } from './common/logging/logger';
import { AppConfig } from './config/app-config';
import { DocsService } from './modules/docs/docs.service';
import { mountBrowserApps } from './modules/web/browser-apps';
import type { NextFunction, Request, Response } from 'express';

/** Swagger UI loads its own scripts and styles and calls this API; nothing else, never framed. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Builds the whole application: HTTP pipeline, documents and Swagger UI. `preview` wires the
 * modules without running any provider (no database, no queue), which is all the OpenAPI
 * generator needs.
 */
export async function createApp(
  options: AppModuleOptions,
  logger: Logger,
  { preview = false }: { preview?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(options),
    new JsonExpressAdapter(),
    {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
      abortOnError: false,
      preview,
    },
  );
  app.disable('x-powered-by');
  // No route promises ETags or answers 304 (the spec has no conditional requests); Express would
  // otherwise hash every JSON body.
  app.set('etag', false);
  // Whether X-Forwarded-For names the client (rate limits per address) is the operator's call:
  // believed from anyone, it lets a client pick its own address.
  app.set('trust proxy', new AppConfig(options.env).trustProxy);
  // One histogram observation per request, and only with METRICS_TOKEN set (`/metrics`).
  app.use(httpLogger(logger, preview ? undefined : requestObserver(app.get(MetricsRegistry))));
  // Browsers call the widget API from the sites that embed it; the guard then checks the origin
  // against the site's allowed domains (403), so the reflected origin grants nothing by itself.
  app.use('/api/widget', cors({ origin: true, maxAge: 600 }));
  if (!preview) {
    answerUnparsableRequests(app.getHttpServer());
    keepIdleConnectionsOpen(app.getHttpServer());
  }
  const transports = options.env.SOCKET_TRANSPORTS.split(',') as SocketTransport[];
  if (options.env.REDIS_URL && !preview) {
    const adapter = new RedisIoAdapter(app, options.env.REDIS_URL, transports);
    await adapter.connect();
    app.useWebSocketAdapter(adapter);
  } else if (!preview) {
    app.useWebSocketAdapter(new LeanIoAdapter(app, transports));
  }
  app.useBodyParser('json', { limit: options.env.BODY_LIMIT });
  // Who asked and from where, for the audit log (after the body is read: its stream events would
  // lose the context).
  app.use(requestContext);
  if (!preview) mountBrowserApps(app);
  // Before any guard reads a key from the query or the body (DESIGN section 3: bad input is a
  // 4xx). The browser apps above read no input: their files and the dashboard's page come first.
  app.use(refuseUnreadableText);
  // The public help centers' pages (HTML, before the API's router).
  if (!preview) mountHelpCenter(app);

  if (!preview) {
    // Built on first use (the CLI's `openapi` builds its own from the preview).
    const docs = app.get(DocsService);
    docs.setDocumentSource(() => buildOpenApiDocument(app));
    app.use('/api/docs', (_request: Request, response: Response, next: NextFunction) => {
      response.setHeader('Content-Security-Policy', DOCS_CSP);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      next();
    });
    SwaggerModule.setup('api/docs', app, () => docs.document() as OpenAPIObject, {
      raw: false,
      customSiteTitle: 'Support Chat Service API',
      swaggerOptions: { url: '/api/v1/openapi.json' },
    });
  }
  return app;
}
