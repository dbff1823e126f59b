import { Global, Module } from '@nestjs/common';
import { MetricsRegistry } from './metrics-registry';

/**
 * The Prometheus registry. Infrastructure, so global like the queue and the database: every
 * feature that counts an outcome (webhooks, mail) injects MetricsRegistry without importing it.
 */
@Global()
@Module({ providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsRegistryModule {}
