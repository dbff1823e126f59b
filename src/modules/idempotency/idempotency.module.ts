import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdempotencyCoverageCheck } from './idempotency-coverage.check';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * `Idempotency-Key` replays. A module whose controllers use `@Idempotent()` imports this one (the
 * interceptor is resolved in the controller's module).
 */
@Module({
  imports: [DiscoveryModule],
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotencyCoverageCheck],
  exports: [IdempotencyRepository, IdempotencyInterceptor],
})
export class IdempotencyModule {}
