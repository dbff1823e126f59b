import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { type DomainEventJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxService } from './outbox.service';

/** Hands each committed event to its subscribers, then marks the outbox row processed. */
@Injectable()
@QueueWorker(QueueName.DomainEvents, { concurrency: 10 })
export class DomainEventsProcessor implements JobProcessor<DomainEventJob> {
  constructor(
    private readonly outbox: OutboxService,
    private readonly rows: OutboxWorkerRepository,
  ) {}

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
