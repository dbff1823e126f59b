import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Enveloped, enveloped } from './envelope';
import { RESPONSE_SHAPE, type ShapedRequest } from './response-shape.guard';

/**
 * Express, with the success bodies of routes put in their envelope here (DESIGN section 3) and
 * written by Node at once: one `JSON.stringify`, headers and body in one write, no Express
 * content negotiation or ETag on the way. Errors (the exception filter answers them), raw
 * documents and streams go through Express as before. That Nest hands every route's result to
 * `reply()` is pinned by test/e2e/framework-overrides.e2e-spec.ts.
 */
export class JsonExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (statusCode !== undefined) response.status(statusCode);
    const shape = (response.req as ShapedRequest)[RESPONSE_SHAPE];
    const status = response.statusCode;
    if (
      shape?.raw ||
      body instanceof StreamableFile ||
      status >= 400 ||
      status === 204 ||
      status === 304
    ) {
      return super.reply(response, body instanceof Enveloped ? JSON.parse(body.json) : body);
    }
    const json =
      body instanceof Enveloped
        ? body.json
        : JSON.stringify(enveloped(status, shape?.message, body));
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
    return response;
  }
}
