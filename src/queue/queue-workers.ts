import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { type ConnectionOptions, Worker } from 'bullmq';
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
  private readonly workers: Worker[] = [];
  private readonly loops: BackgroundLoop[] = [];

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
        new Worker(queue, (job) => processor.process(job), {
          connection: this.connection,
          // Only the options given: BullMQ's defaults would be overwritten by an undefined one.
          ...definedOnly(options),
        }),
      );
    }
    for (const loop of this.loops) await loop.start();
  }

  /** Let running jobs finish while the database is still open (it closes in the next phase). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([
      ...this.loops.map((loop) => loop.stop()),
      ...this.workers.map((worker) => worker.close()),
    ]);
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
