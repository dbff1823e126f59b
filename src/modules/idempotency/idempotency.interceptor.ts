import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/auth/auth.types';
import { sha256, sameBytes } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { renderError, StoredResponse } from '../../common/errors/render-error';
import { Enveloped, enveloped } from '../../common/http/envelope';
import { RESPONSE_SHAPE, type ShapedRequest } from '../../common/http/response-shape.guard';
import { IdempotencyRepository } from './idempotency.repository';

const HEADER = 'idempotency-key';
const PURGE_EVERY_MS = 10 * 60 * 1000;

/** Stable JSON: the same body with keys in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * `Idempotency-Key` on public API POST and PATCH (DESIGN section 5). The first response (status
 * and body, errors included) is kept 24 hours per API key and key, and replayed with
 * `Idempotent-Replayed: true`. The same key with another endpoint or body is a 422; while the
 * first request runs, a second is a 409. A 5xx is not kept, so a retry runs again.
 *
 * Applied per route by `@Idempotent()` (a start-up check makes sure every public POST and PATCH
 * has it), so GET routes carry no interceptor at all. It puts the body in its envelope itself,
 * so that what it keeps and replays is the response exactly as sent.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private lastPurge = 0;

  constructor(private readonly records: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & ShapedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const header = request.headers[HEADER];
    if (!request.apiKey || !['POST', 'PATCH'].includes(request.method) || header === undefined)
      return next.handle();

    const key = Array.isArray(header) ? header[0] : header;
    if (key.length === 0 || key.length > 255) {
      return throwError(() =>
        AppError.invalid(
          'Idempotency-Key',
          'The Idempotency-Key header must be 1 to 255 characters.',
          'idempotency_key_invalid',
        ),
      );
    }
    const apiKeyId = request.apiKey.id;
    const fingerprint = sha256(`${request.method} ${request.path}\n${canonical(request.body)}`);
    this.purgeNowAndThen();

    return from(this.records.claim(apiKeyId, key, fingerprint)).pipe(
      mergeMap((existing) => {
        if (existing) {
          if (!sameBytes(Buffer.from(existing.fingerprint), fingerprint)) {
            throw AppError.invalid(
              'Idempotency-Key',
              'This Idempotency-Key was already used with a different endpoint or body.',
              'idempotency_key_reused',
            );
          }
          if (existing.status === null) {
            throw AppError.conflict(
              'A request with this Idempotency-Key is still being processed.',
              'idempotency_key_in_progress',
            );
          }
          if (existing.status >= 400) {
            throw new StoredResponse(existing.status, existing.body_text ?? '{}', {
              'Idempotent-Replayed': 'true',
            });
          }
          response.status(existing.status);
          response.setHeader('Idempotent-Replayed', 'true');
          return of(new Enveloped(existing.body_text ?? '{}'));
        }
        return next.handle().pipe(
          // The record is complete before the response leaves, so a retry right after replays it.
          mergeMap((body: unknown) => {
            const status = response.statusCode;
            // Serialized once: the text kept is the text sent, and what a replay sends.
            const sent = JSON.stringify(enveloped(status, request[RESPONSE_SHAPE]?.message, body));
            return from(
              this.records.complete(apiKeyId, key, status, sent).then(() => new Enveloped(sent)),
            );
          }),
          catchError((error: unknown) => {
            const rendered = renderError(error);
            if (rendered.status >= 500) {
              return from(this.records.release(apiKeyId, key).catch(() => undefined)).pipe(
                mergeMap(() => throwError(() => error)),
              );
            }
            // Rendered once: the error's text kept is the text sent (its datetime included).
            const sent = new StoredResponse(
              rendered.status,
              rendered.json ?? JSON.stringify(rendered.body),
              rendered.headers,
            );
            return from(
              this.records.complete(apiKeyId, key, sent.status, sent.json).catch(() => undefined),
            ).pipe(mergeMap(() => throwError(() => sent)));
          }),
        );
      }),
    );
  }

  private purgeNowAndThen(): void {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    void this.records.purgeExpired().catch(() => undefined);
  }
}
