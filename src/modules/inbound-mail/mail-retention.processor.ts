import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { MailService } from '../mail/mail.service';
import { InboundMailWorkerRepository } from './inbound-mail-worker.repository';

/**
 * Mail's retention (MAIL_RETENTION_DAYS): a BullMQ repeatable job, every RETENTION_EVERY_SECONDS
 * (daily), deletes the incoming raw mails and the mail-log rows older than that. Here because
 * this module holds the incoming store and already sends through MailService.
 */
@Injectable()
@QueueWorker(QueueName.MailRetention, { concurrency: 1 })
export class MailRetentionProcessor implements JobProcessor<unknown>, OnApplicationBootstrap {
  private readonly logger = new Logger('mail');

  constructor(
    @InjectQueue(QueueName.MailRetention) private readonly queue: Queue,
    private readonly store: InboundMailWorkerRepository,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Idempotent: every instance upserts the same scheduler.
    await this.queue.upsertJobScheduler(
      'mail-retention',
      { every: this.config.env.RETENTION_EVERY_SECONDS * 1000 },
      { name: 'mail-retention', opts: { removeOnComplete: true, removeOnFail: 10 } },
    );
  }

  async process(): Promise<void> {
    const inbound = await this.store.deleteOlderThan(this.config.env.MAIL_RETENTION_DAYS);
    const logged = await this.mail.purgeLog();
    if (inbound + logged > 0) {
      this.logger.log({ msg: 'mail past retention deleted', inbound, mailLog: logged });
    }
  }
}
