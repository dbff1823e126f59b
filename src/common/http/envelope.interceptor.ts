import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { defaultMessage, envelope } from './envelope';
import { RAW_RESPONSE, RESPONSE_MESSAGE } from './response-message.decorator';

/** Wraps every success body in the envelope: controllers return only their fields. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, targets)) return next.handle();
    const message = this.reflector.getAllAndOverride<string>(RESPONSE_MESSAGE, targets);
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        const status = response.statusCode;
        const fields = body && typeof body === 'object' ? body : {};
        return { ...envelope(status, message ?? defaultMessage(status)), ...fields };
      }),
    );
  }
}
