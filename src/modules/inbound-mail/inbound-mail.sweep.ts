import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '../../queue/periodic-sweep';
import { BackgroundWorker } from '../../queue/queue-worker';
import { InboundMailWorkerRepository } from './inbound-mail-worker.repository';
import { InboundMailService } from './inbound-mail.service';

const STALE_SECONDS = 60;
const EVERY_MS = 60_000;

/**
 * Incoming mail is stored before it is parsed; a crash (or a failure such as the database going
 * away mid-way) leaves it `received`. At start and every minute, such mails are parsed again.
 */
@Injectable()
@BackgroundWorker()
export class InboundMailSweep extends PeriodicSweep {
  constructor(
    private readonly store: InboundMailWorkerRepository,
    private readonly inbound: InboundMailService,
  ) {
    super(new Logger('inbound-mail'), EVERY_MS, 'inbound mail sweep failed');
  }

  protected async sweep(): Promise<void> {
    const stale = await this.store.staleReceived(STALE_SECONDS, 200);
    for (const row of stale) await this.inbound.processSafely(row.id);
    if (stale.length > 0)
      this.logger.log({ msg: 'stored mails parsed again', count: stale.length });
  }
}
