import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { AuditLogService } from './audit-log.service';

/**
 * The audit log's retention (AUDIT_RETENTION_DAYS): a BullMQ repeatable job, every
 * RETENTION_EVERY_SECONDS (daily), deletes older rows; the only deletes the trigger lets through.
 */
@Injectable()
@QueueWorker(QueueName.AuditRetention, { concurrency: 1 })
export class AuditRetentionProcessor implements JobProcessor<unknown>, OnApplicationBootstrap {
  private readonly logger = new Logger('audit');

  constructor(
    @InjectQueue(QueueName.AuditRetention) private readonly queue: Queue,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Idempotent: every instance upserts the same scheduler.
    await this.queue.upsertJobScheduler(
      'audit-retention',
      { every: this.config.env.RETENTION_EVERY_SECONDS * 1000 },
      { name: 'audit-retention', opts: { removeOnComplete: true, removeOnFail: 10 } },
    );
  }

  async process(): Promise<void> {
    const deleted = await this.audit.deleteOlderThan(this.config.env.AUDIT_RETENTION_DAYS);
    if (deleted > 0) this.logger.log({ msg: 'audit rows past retention deleted', count: deleted });
  }
}
