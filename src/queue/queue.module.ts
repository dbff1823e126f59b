import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ConnectionOptions } from 'bullmq';
import { QueueName } from './queue-names';
import { QUEUE_CONNECTION, QueueWorkers } from './queue-workers';

/**
 * BullMQ on Redis or on PostgreSQL (see queueConnection), with every queue of QueueName, and the
 * workers found at boot (QueueWorkers). Global, as infrastructure: any feature may add a job with
 * `@InjectQueue(QueueName.X)` (docs/architecture.md, "Global modules").
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: { connection: ConnectionOptions }): DynamicModule {
    const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));
    return {
      module: QueueModule,
      imports: [DiscoveryModule, BullModule.forRoot({ connection: options.connection }), queues],
      providers: [{ provide: QUEUE_CONNECTION, useValue: options.connection }, QueueWorkers],
      exports: [queues],
    };
  }
}
