import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '../../queue/periodic-sweep';
import { BackgroundWorker } from '../../queue/queue-worker';
import { MailRepository } from './mail.repository';
import { MailService } from './mail.service';

/** How long a queued mail may go unchanged before its job is added again (a no-op if it exists). */
const STALE_SECONDS = 10 * 60;
const EVERY_MS = 5 * 60 * 1000;

/**
 * A mail is logged before its job is added; a crash in between would leave it queued forever.
 * Every few minutes (and at start) the mails queued and untouched for a while are queued again;
 * the job id is the mail's, so a job still waiting (in its backoff) is not doubled.
 */
@Injectable()
@BackgroundWorker()
export class MailRequeueSweep extends PeriodicSweep {
  constructor(
    private readonly repository: MailRepository,
    private readonly mail: MailService,
  ) {
    super(new Logger('mail'), EVERY_MS, 'mail re-queue sweep failed');
  }

  protected async sweep(): Promise<void> {
    const stale = await this.repository.staleQueued(STALE_SECONDS, 500);
    for (const row of stale) await this.mail.enqueue(row.organization_id, row.id);
    if (stale.length > 0)
      this.logger.log({ msg: 'queued mails queued again', count: stale.length });
  }
}
