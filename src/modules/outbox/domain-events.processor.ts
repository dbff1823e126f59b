import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { type DomainEventJob, QueueName } from '../../queue/queue-names';
import type { DomainEventRecord } from './domain-event';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxService } from './outbox.service';

/** Hands each committed event to its subscribers, then marks the outbox row processed. */
@Processor(QueueName.DomainEvents, { concurrency: 10 })
export class DomainEventsProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly outbox: OutboxService,
    private readonly rows: OutboxWorkerRepository,
  ) {
    super();
  }

  /** Every subscriber has subscribed in its module's init: a consumer the table names must have. */
  onApplicationBootstrap(): void {
    const missing = this.outbox.missingSubscriptions();
    if (missing.length > 0) {
      throw new Error(
        `Consumers named in outbox/events/subscriptions.ts that did not subscribe: ${missing.join(', ')}`,
      );
    }
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
    // The row was written by `publish`, so its payload is the one its type carries.
    const record = { outboxId, type: eventType, organizationId, payload, occurredAt };
    for (const handler of this.outbox.handlersFor(eventType)) {
      await handler(record as unknown as DomainEventRecord);
    }
    await this.rows.markProcessed(outboxId);
  }
}
