import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Response } from 'express';
import {
  AUTH_METADATA,
  type AuthDeclaration,
  type AuthenticatedRequest,
} from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';

/**
 * RATE_LIMIT_PER_MINUTE requests per API key across every public route and every instance
 * (DESIGN section 5). AuthGuard calls it once the key is known and before the ability check,
 * so refused-for-ability requests count too. Every such response carries X-RateLimit-Limit,
 * X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the window resets); a 429 adds
 * Retry-After.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const declaration = this.reflector.getAllAndOverride<AuthDeclaration | undefined>(
      AUTH_METADATA,
      [context.getHandler(), context.getClass()],
    );
    return declaration?.kind !== 'api_key';
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const key = (request as unknown as AuthenticatedRequest).apiKey;
    if (!key) throw AppError.unauthenticated();
    return key.id;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `api-key:${tracker}`;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader('X-RateLimit-Limit', detail.limit);
    response.setHeader('X-RateLimit-Remaining', 0);
    response.setHeader('X-RateLimit-Reset', detail.timeToExpire);
    throw new AppError('rate_limited', 'Too Many Attempts.', {
      reason: 'too_many_attempts',
      headers: { 'Retry-After': String(detail.timeToBlockExpire) },
    });
  }
}
