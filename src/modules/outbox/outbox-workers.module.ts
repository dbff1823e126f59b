import { Module } from '@nestjs/common';
import { OutboxModule } from './outbox.module';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxDispatcher } from './outbox.dispatcher';

/**
 * The outbox's worker: the dispatcher hands committed rows to their subscribers. It runs only
 * where workers run (QueueWorkers starts it at boot); the app registers this module, the CLI
 * (which only publishes) does not.
 */
@Module({
  imports: [OutboxModule],
  providers: [OutboxWorkerRepository, OutboxDispatcher],
})
export class OutboxWorkersModule {}
