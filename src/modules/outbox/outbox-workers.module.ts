import { Module } from '@nestjs/common';
import { DomainEventsProcessor } from './domain-events.processor';
import { OutboxModule } from './outbox.module';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxRelay } from './outbox.relay';

/**
 * The outbox's workers: the relay moves committed rows into the queue, the processor hands them
 * to the subscribers. Both run only where workers run (QueueWorkers starts them at boot); the
 * app registers this module, the CLI (which only publishes) does not.
 */
@Module({
  imports: [OutboxModule],
  providers: [OutboxWorkerRepository, OutboxRelay, DomainEventsProcessor],
})
export class OutboxWorkersModule {}
