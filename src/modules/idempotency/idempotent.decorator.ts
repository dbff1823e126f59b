import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiIdempotent } from '../../common/openapi/api-errors.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** A public POST or PATCH that honours `Idempotency-Key` (DESIGN section 5), and says so. */
export const Idempotent = () =>
  applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiIdempotent());
