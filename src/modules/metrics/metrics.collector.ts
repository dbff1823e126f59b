import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfig } from '../../config/app-config';
import { QueueName } from '../../queue/queue-names';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';

const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/**
 * The figures read rather than counted as they happen. Those kept in the database (queue depths
 * and the oldest waiting job per queue, the outbox backlog: a few statements) are read in the
 * background every `METRICS_SAMPLE_SECONDS` while metrics are on, so a scrape never waits on the
 * database and its time does not swing with it; the first scrape, or one after the reads fell
 * two periods behind, waits for a fresh read. This instance's sockets and database pool are read
 * at scrape time (counters in memory).
 */
@Injectable()
export class MetricsCollector implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MetricsCollector.name);
  private readonly queueJobs;
  private readonly queueOldest;
  private readonly outboxPending;
  private readonly outboxLag;
  private readonly outboxFailed;
  private readonly sockets;
  private readonly pool;
  private readonly queues: { name: QueueName; queue: Queue }[];
  private readonly enabled: boolean;
  private readonly everyMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** The read in progress (one at a time), and when the last one ended. */
  private reading: Promise<void> | undefined;
  private readAt = 0;
  /** When each queue's oldest waiting job was added, and the outbox's lag, as last read. */
  private oldest = new Map<QueueName, number | undefined>();
  private outboxLagAtRead = 0;

  constructor(
    config: AppConfig,
    private readonly metrics: MetricsRegistry,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly dataSource: DataSource,
    moduleRef: ModuleRef,
  ) {
    this.enabled = config.env.METRICS_TOKEN !== undefined;
    this.everyMs = config.env.METRICS_SAMPLE_SECONDS * 1000;
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

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => void this.read().catch(() => undefined), this.everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Sets every gauge: the database's figures as last read, the rest as they are now. */
  async collect(): Promise<void> {
    if (Date.now() - this.readAt > 2 * this.everyMs) await this.read();
    // Ages as of now, not as of the read.
    const now = Date.now();
    for (const [name, oldest] of this.oldest)
      this.queueOldest.set({ queue: name }, oldest ? Math.max(0, (now - oldest) / 1000) : 0);
    this.outboxLag.set(
      this.outboxLagAtRead > 0 ? this.outboxLagAtRead + (now - this.readAt) / 1000 : 0,
    );
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

  /** Reads the queues and the outbox and sets their gauges; joins a read already running. */
  private read(): Promise<void> {
    this.reading ??= this.readStores()
      .then(() => {
        this.readAt = Date.now();
      })
      .catch((error: unknown) => {
        this.logger.warn(`metrics: queues and outbox not read: ${String(error)}`);
        throw error;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  private async readStores(): Promise<void> {
    const [queues, backlog] = await Promise.all([
      Promise.all(this.queues.map(({ name, queue }) => this.readQueue(name, queue))),
      this.outbox.backlog(),
    ]);
    for (const { name, counts, oldest } of queues) {
      for (const state of QUEUE_STATES)
        this.queueJobs.set({ queue: name, state }, counts[state] ?? 0);
      this.oldest.set(name, oldest);
    }
    this.outboxPending.set(backlog.pending);
    this.outboxLagAtRead = backlog.lag_seconds;
    this.outboxFailed.set(backlog.failed);
  }

  private async readQueue(name: QueueName, queue: Queue) {
    const [counts, [first]] = await Promise.all([
      queue.getJobCounts(...QUEUE_STATES),
      queue.getJobs(['waiting'], 0, 0, true),
    ]);
    return { name, counts, oldest: first?.timestamp };
  }
}
