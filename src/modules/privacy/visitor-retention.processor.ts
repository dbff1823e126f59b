import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { PrivacyService } from './privacy.service';

/**
 * The sites' retention (`retention_days`): a BullMQ repeatable job, every
 * RETENTION_EVERY_SECONDS (daily), erases the conversations closed longer ago.
 */
@Injectable()
@QueueWorker(QueueName.VisitorRetention, { concurrency: 1 })
export class VisitorRetentionProcessor implements JobProcessor<unknown>, OnApplicationBootstrap {
  constructor(
    @InjectQueue(QueueName.VisitorRetention) private readonly queue: Queue,
    private readonly privacy: PrivacyService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Idempotent: every instance upserts the same scheduler.
    await this.queue.upsertJobScheduler(
      'visitor-retention',
      { every: this.config.env.RETENTION_EVERY_SECONDS * 1000 },
      { name: 'visitor-retention', opts: { removeOnComplete: true, removeOnFail: 10 } },
    );
  }

  async process(): Promise<void> {
    await this.privacy.applyRetention();
  }
}
