import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { QueueName } from '../../queue/queue-names';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';

const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/**
 * The figures read at scrape time rather than counted as they happen: queue depths and the oldest
 * waiting job per queue, the outbox backlog, this instance's sockets per namespace and its
 * database pool. One scrape reads them all at once (a few statements in parallel), sets the
 * gauges and renders; nothing runs between scrapes.
 */
@Injectable()
export class MetricsCollector {
  private readonly queueJobs;
  private readonly queueOldest;
  private readonly outboxPending;
  private readonly outboxLag;
  private readonly outboxFailed;
  private readonly sockets;
  private readonly pool;
  private readonly queues: { name: QueueName; queue: Queue }[];

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly dataSource: DataSource,
    moduleRef: ModuleRef,
  ) {
    this.queues = Object.values(QueueName).map((name) => ({
      name,
      queue: moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    }));
    this.queueJobs = metrics.gauge('scs_queue_jobs', 'Jobs per queue and state', [
      'queue',
      'state',
    ]);
    this.queueOldest = metrics.gauge(
      'scs_queue_oldest_waiting_seconds',
      'Age of the oldest job waiting to run, per queue (0 when none waits)',
      ['queue'],
    );
    this.outboxPending = metrics.gauge(
      'scs_outbox_pending_events',
      'Domain events committed and not yet handed to their subscribers',
      [],
    );
    this.outboxLag = metrics.gauge(
      'scs_outbox_lag_seconds',
      'Age of the oldest pending domain event (0 when none)',
      [],
    );
    this.outboxFailed = metrics.gauge(
      'scs_outbox_failed_events',
      'Domain events given up on after their last attempt (kept a week)',
      [],
    );
    this.sockets = metrics.gauge(
      'scs_socket_connections',
      'Socket.IO connections open on this instance, per namespace',
      ['namespace'],
    );
    this.pool = metrics.gauge(
      'scs_db_pool_connections',
      "This instance's database pool: connections by state, and requests waiting for one",
      ['state'],
    );
  }

  /** Sets every scrape-time gauge. */
  async collect(): Promise<void> {
    const [queues, backlog] = await Promise.all([
      Promise.all(this.queues.map(({ name, queue }) => this.readQueue(name, queue))),
      this.outbox.backlog(),
    ]);
    const now = Date.now();
    for (const { name, counts, oldest } of queues) {
      for (const state of QUEUE_STATES)
        this.queueJobs.set({ queue: name, state }, counts[state] ?? 0);
      this.queueOldest.set({ queue: name }, oldest ? Math.max(0, (now - oldest) / 1000) : 0);
    }
    this.outboxPending.set(backlog.pending);
    this.outboxLag.set(backlog.lag_seconds);
    this.outboxFailed.set(backlog.failed);
    const sockets = this.realtime.localSockets();
    this.sockets.set({ namespace: '/widget' }, sockets.widget);
    this.sockets.set({ namespace: '/agent' }, sockets.agent);
    const pool = (this.dataSource.driver as { master?: Pool }).master;
    if (pool) {
      this.pool.set({ state: 'total' }, pool.totalCount);
      this.pool.set({ state: 'idle' }, pool.idleCount);
      this.pool.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
      this.pool.set({ state: 'waiting' }, pool.waitingCount);
    }
  }

  private async readQueue(name: QueueName, queue: Queue) {
    const [counts, [first]] = await Promise.all([
      queue.getJobCounts(...QUEUE_STATES),
      queue.getJobs(['waiting'], 0, 0, true),
    ]);
    return { name, counts, oldest: first?.timestamp };
  }
}
