import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bullmq';
import { type DomainEventJob, QueueName } from '../../queue/queue-names';
import { QUICK_RECOVERY } from '../../queue/worker-options';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxService } from './outbox.service';

/** Hands each committed event to its subscribers, then marks the outbox row processed. */
@Processor(QueueName.DomainEvents, { concurrency: 10, ...QUICK_RECOVERY })
export class DomainEventsProcessor extends WorkerHost implements BeforeApplicationShutdown {
  constructor(
    private readonly outbox: OutboxService,
    private readonly rows: OutboxWorkerRepository,
  ) {
    super();
  }

  /** Let running jobs finish while the database is still open (it closes in the next phase). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }

  async process(job: Job<DomainEventJob>): Promise<void> {
    const { outboxId, eventType, organizationId, payload, occurredAt } = job.data;
    // A row relayed again after its first job was removed (a crash between enqueue and the
    // relay's commit, noticed late) has been handled once already.
    if (await this.rows.isProcessed(outboxId)) return;
    for (const handler of this.outbox.handlersFor(eventType)) {
      await handler({ outboxId, type: eventType, organizationId, payload, occurredAt });
    }
    await this.rows.markProcessed(outboxId);
  }
}
