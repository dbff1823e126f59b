import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { QueueName } from '../../queue/queue-names';
import { OutboxService } from '../outbox/outbox.service';
import { type OperatorActor, PlatformRepository } from './platform.repository';
import { iso } from '../../common/time/iso';

/** How many of a queue's failed jobs the console shows (the newest). */
const FAILED_SHOWN = 20;
const STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'] as const;
/** BullMQ job ids here are numbers or the features' own keys (`<delivery>-<attempt>`, ...). */
const JOB_ID = /^[A-Za-z0-9:_.-]{1,200}$/;

/**
 * Queue health for the console: each queue's jobs by state, its oldest waiting job and its newest
 * failed jobs with their error, and the outbox backlog; failed jobs retried or removed by hand
 * (each action in the operator log). A job's data is never shown: it may hold sealed values.
 */
@Injectable()
export class PlatformQueuesService {
  private resolved?: Map<string, Queue>;

  constructor(
    private readonly repository: PlatformRepository,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Found on first use: the CLI builds this module without any queue. */
  private get queues(): Map<string, Queue> {
    this.resolved ??= new Map(
      Object.values(QueueName).map((name) => [
        name,
        this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
      ]),
    );
    return this.resolved;
  }

  async overview() {
    const now = Date.now();
    const [queues, outbox] = await Promise.all([
      Promise.all(
        [...this.queues].map(async ([name, queue]) => {
          const [counts, [oldest], failed] = await Promise.all([
            queue.getJobCounts(...STATES),
            queue.getJobs(['waiting'], 0, 0, true),
            queue.getJobs(['failed'], 0, FAILED_SHOWN - 1, false),
          ]);
          return {
            name,
            ...Object.fromEntries(STATES.map((state) => [state, counts[state] ?? 0])),
            oldest_waiting_seconds: oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0,
            failed_jobs: failed.filter((job): job is Job => job !== undefined).map(toFailedJob),
          };
        }),
      ),
      this.outbox.backlog(),
    ]);
    return { queues, outbox };
  }

  /** Runs a failed job again. 404: no such queue or job; 409: the job has not failed. */
  async retry(queueName: string, jobId: string, actor: OperatorActor) {
    const { queue, job } = await this.find(queueName, jobId);
    const state = await job.getState();
    if (state !== 'failed')
      throw AppError.conflict(
        `Only a failed job can be retried; it is ${state}.`,
        'job_not_failed',
      );
    await job.retry('failed');
    await this.record(actor, 'job.retried', queue.name, jobId, {
      state: { from: state, to: 'waiting' },
    });
    return { queue: queue.name, id: jobId, state: 'waiting' };
  }

  /** Removes a job that is not running. 404: no such queue or job; 409: it is running. */
  async remove(queueName: string, jobId: string, actor: OperatorActor) {
    const { queue, job } = await this.find(queueName, jobId);
    const state = await job.getState();
    if (state === 'active')
      throw AppError.conflict('A running job cannot be removed.', 'job_running');
    await job.remove();
    await this.record(actor, 'job.removed', queue.name, jobId, {
      state: { from: state, to: null },
    });
    return { queue: queue.name, id: jobId, state: 'removed' };
  }

  private async find(queueName: string, jobId: string): Promise<{ queue: Queue; job: Job }> {
    const queue = this.queues.get(queueName);
    if (!queue || !JOB_ID.test(jobId)) throw AppError.notFound();
    const job = (await queue.getJob(jobId)) as Job | undefined;
    if (!job) throw AppError.notFound();
    return { queue, job };
  }

  private record(
    actor: OperatorActor,
    action: string,
    queue: string,
    jobId: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    return this.repository.log(this.dataSource, actor, {
      action,
      targetType: 'job',
      targetId: `${queue}/${jobId}`,
      changes,
    });
  }
}

function toFailedJob(job: Job) {
  return {
    id: String(job.id),
    name: job.name,
    failed_reason: job.failedReason || null,
    attempts_made: job.attemptsMade,
    created_at: iso(job.timestamp),
    failed_at: iso(job.finishedOn),
  };
}
