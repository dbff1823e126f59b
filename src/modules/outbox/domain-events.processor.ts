import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { type DomainEventJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { QUICK_RECOVERY } from '../../queue/worker-options';
import type { DomainEventRecord } from './domain-event';
import { OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxService } from './outbox.service';

/** Hands each committed event to its subscribers, then marks the outbox row processed. */
@Injectable()
@QueueWorker(QueueName.DomainEvents, { concurrency: 10, ...QUICK_RECOVERY })
export class DomainEventsProcessor implements JobProcessor<DomainEventJob>, OnApplicationBootstrap {
  constructor(
    private readonly outbox: OutboxService,
    private readonly rows: OutboxWorkerRepository,
  ) {}

  /** Every subscriber has subscribed in its module's init: a consumer the table names must have. */
  onApplicationBootstrap(): void {
    const missing = this.outbox.missingSubscriptions();
    if (missing.length > 0) {
      throw new Error(
        `Consumers named in outbox/events/subscriptions.ts that did not subscribe: ${missing.join(', ')}`,
      );
    }
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
