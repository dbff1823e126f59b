import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdempotencyCoverageCheck } from './idempotency-coverage.check';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/** Global, so that `@Idempotent()` resolves its interceptor in any module's controllers. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotencyCoverageCheck],
  exports: [IdempotencyRepository, IdempotencyInterceptor],
})
export class IdempotencyModule {}
