import type { Logger } from '@nestjs/common';
import type { BackgroundLoop } from './queue-worker';

/**
 * A background loop that runs `sweep` at start and then every `everyMs`; a failed sweep is a
 * warning (the next one tries again), and stopping waits for the sweep in progress.
 */
export abstract class PeriodicSweep implements BackgroundLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  protected constructor(
    protected readonly logger: Logger,
    private readonly everyMs: number,
    private readonly failure: string,
  ) {}

  protected abstract sweep(): Promise<void>;

  start(): Promise<void> {
    const run = () => {
      this.running = this.sweep().catch((error: unknown) =>
        this.logger.warn({ msg: this.failure, error: String(error) }),
      );
    };
    run();
    this.timer = setInterval(run, this.everyMs);
    this.timer.unref();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
