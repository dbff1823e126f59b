import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DomainEventsProcessor } from './domain-events.processor';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxRelay } from './outbox.relay';
import { OutboxService } from './outbox.service';

/**
 * The transactional outbox. Every instance can publish; only instances that run workers relay
 * rows into the queue and process them.
 */
@Global()
@Module({})
export class OutboxModule {
  static forRoot(options: { workers: boolean }): DynamicModule {
    return {
      module: OutboxModule,
      providers: [
        OutboxService,
        ...(options.workers ? [OutboxWorkerRepository, OutboxRelay, DomainEventsProcessor] : []),
      ],
      exports: [OutboxService],
    };
  }
}
