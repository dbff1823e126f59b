import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, type BackgroundLoop } from '../../queue/queue-worker';
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
export class InboundMailSweep implements BackgroundLoop {
  private readonly logger = new Logger('inbound-mail');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly store: InboundMailWorkerRepository,
    private readonly inbound: InboundMailService,
  ) {}

  start(): Promise<void> {
    const run = () => {
      this.running = this.sweep().catch((error: unknown) =>
        this.logger.warn({ msg: 'inbound mail sweep failed', error: String(error) }),
      );
    };
    run();
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async sweep(): Promise<void> {
    const stale = await this.store.staleReceived(STALE_SECONDS, 200);
    for (const row of stale) await this.inbound.processSafely(row.id);
    if (stale.length > 0)
      this.logger.log({ msg: 'stored mails parsed again', count: stale.length });
  }
}
