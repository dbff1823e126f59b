import type { Job } from 'bullmq';
import type { QueueName } from './queue-names';

const QUEUE_WORKER = Symbol('queue-worker');
const BACKGROUND_WORKER = Symbol('background-worker');

/**
 * How a queue's jobs are consumed: `concurrency` jobs at once per instance; `lockDuration` and
 * `stalledInterval` (BullMQ's, 30 s each when not given) bound how long the jobs of a killed
 * process wait before they run again (see worker-options.ts).
 */
export interface QueueWorkerOptions {
  concurrency: number;
  lockDuration?: number;
  stalledInterval?: number;
}

/** A queue's consumer: a provider marked `@QueueWorker(queue, options)`. */
export interface JobProcessor<T> {
  /** `token`: the worker's lock on the job, for a processor that moves it (`moveToDelayed`). */
  process(job: Job<T>, token?: string): Promise<void>;
}

/** A long-running loop that is not a queue consumer (the outbox dispatcher). */
export interface BackgroundLoop {
  start(): Promise<void>;
  /** Before the queues and the database close. */
  stop(): Promise<void>;
}

/**
 * Marks a provider as the consumer of `queue`. Features list their consumers as ordinary
 * providers; QueueWorkers finds them at boot and runs them only where `WORKERS_ENABLED` is true,
 * so no module needs to be told whether workers run.
 */
export function QueueWorker(queue: QueueName, options: QueueWorkerOptions): ClassDecorator {
  return (target) => Reflect.defineMetadata(QUEUE_WORKER, { queue, ...options }, target);
}

/** Marks a provider as a background loop that QueueWorkers starts where workers run. */
export function BackgroundWorker(): ClassDecorator {
  return (target) => Reflect.defineMetadata(BACKGROUND_WORKER, true, target);
}

export function queueWorkerOf(
  type: object,
): (QueueWorkerOptions & { queue: QueueName }) | undefined {
  return Reflect.getMetadata(QUEUE_WORKER, type) as
    (QueueWorkerOptions & { queue: QueueName }) | undefined;
}

export function isBackgroundWorker(type: object): boolean {
  return Reflect.getMetadata(BACKGROUND_WORKER, type) === true;
}
