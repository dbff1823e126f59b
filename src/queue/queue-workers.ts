import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { type ConnectionOptions, type Job, Worker } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { QueueName } from './queue-names';
import {
  type BackgroundLoop,
  isBackgroundWorker,
  type JobProcessor,
  type QueueWorkerOptions,
  queueWorkerOf,
} from './queue-worker';

export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/**
 * Runs the workers where `WORKERS_ENABLED` is true: a BullMQ worker for every provider marked
 * `@QueueWorker`, and every `@BackgroundWorker` loop, all found at boot (immich's way). A queue
 * without a consumer fails the start: a job nobody handles would wait forever.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueWorkers.name);
  private readonly workers: Worker[] = [];
  private readonly loops: BackgroundLoop[] = [];
  /** The jobs this process is running, with the lock token that lets it hand them back. */
  private readonly running = new Map<Job, string | undefined>();
  private idle?: () => void;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly config: AppConfig,
    @Inject(QUEUE_CONNECTION) private readonly connection: ConnectionOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.env.WORKERS_ENABLED) return;
    const consumers = new Map<
      QueueName,
      { processor: JobProcessor<unknown>; options: QueueWorkerOptions }
    >();
    for (const wrapper of this.discovery.getProviders()) {
      const type: unknown = wrapper.metatype;
      if (typeof type !== 'function' || !wrapper.instance) continue;
      const worker = queueWorkerOf(type);
      if (worker) {
        if (consumers.has(worker.queue))
          throw new Error(`Two consumers registered for queue ${worker.queue}`);
        const processor = wrapper.instance as JobProcessor<unknown>;
        const { queue, ...options } = worker;
        consumers.set(queue, { processor, options });
      }
      if (isBackgroundWorker(type)) this.loops.push(wrapper.instance as BackgroundLoop);
    }
    const missing = Object.values(QueueName).filter((name) => !consumers.has(name));
    if (missing.length > 0)
      throw new Error(`No processor registered for queue(s): ${missing.join(', ')}`);
    for (const [queue, { processor, options }] of consumers) {
      this.workers.push(
        new Worker(queue, (job, token) => this.run(processor, job, token), {
          connection: this.connection,
          // Only the options given: BullMQ's defaults would be overwritten by an undefined one.
          ...definedOnly(options),
        }),
      );
    }
    for (const loop of this.loops) await loop.start();
  }

  private async run(processor: JobProcessor<unknown>, job: Job, token?: string): Promise<void> {
    this.running.set(job, token);
    try {
      await processor.process(job, token);
    } finally {
      this.running.delete(job);
      if (this.running.size === 0) this.idle?.();
    }
  }

  /**
   * Before the database closes (the next phase): takes no new job, gives the running ones
   * `SHUTDOWN_JOB_WAIT_MS` to finish, and hands back those still running (moved back to waiting,
   * so another instance runs them now rather than after their lock runs out). The outbox loop
   * stops claiming and finishes the events it holds.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const loops = Promise.all(this.loops.map((loop) => loop.stop()));
    await Promise.all(this.workers.map((worker) => worker.pause(true)));
    const finished = await this.runningFinish(this.config.env.SHUTDOWN_JOB_WAIT_MS);
    if (!finished) {
      const handedBack = [...this.running];
      await Promise.all(
        handedBack.map(([job, token]) =>
          job
            .moveToWait(token)
            .catch((error: unknown) =>
              this.logger.warn({ msg: 'job not handed back', job: job.id, err: String(error) }),
            ),
        ),
      );
      this.logger.warn({
        msg: 'jobs still running at shutdown were handed back to their queues',
        jobs: handedBack.map(([job]) => `${job.queueName}/${String(job.id)}`),
      });
    }
    await Promise.all([loops, ...this.workers.map((worker) => worker.close(!finished))]);
  }

  /** Whether the running jobs finished within `ms`. */
  private runningFinish(ms: number): Promise<boolean> {
    if (this.running.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
