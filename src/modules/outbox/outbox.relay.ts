import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../database/database-runtime';
import { type DomainEventJob, QueueName } from '../../queue/queue-names';
import { type BackgroundLoop, BackgroundWorker } from '../../queue/queue-worker';
import { OutboxWorkerRepository } from './outbox-worker.repository';

const BATCH = 200;
const POLL_MS = 1000;
const CLEANUP_EVERY_MS = 10 * 60 * 1000;
const LISTEN_RETRY_MS = 3000;

/**
 * Moves committed outbox rows into the queue. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so
 * several instances can relay at once; the job id is derived from the row id, so a row sent twice
 * (a crash after enqueue, before the commit that marks it) becomes one job.
 */
@Injectable()
@BackgroundWorker()
export class OutboxRelay implements BackgroundLoop {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener?: Client;
  private timer?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = false;
  private lastCleanup = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rows: OutboxWorkerRepository,
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventJob>,
    @Inject(DATABASE_RUNTIME) private readonly database: DatabaseRuntime,
  ) {}

  async start(): Promise<void> {
    await this.listen();
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.wake();
  }

  /** Before the queues and the database close (they do so in onApplicationShutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
  }

  /** Starts a drain, or asks the running one to go round once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'outbox relay pass failed', err: String(error) }),
      )
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** LISTEN for commits; when the connection drops, poll alone and try again every few seconds. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.database.url });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({
        msg: 'outbox listener lost; polling until it is back',
        err: error instanceof Error ? error.message : 'closed',
      });
      this.retry = setTimeout(() => void this.listen(), LISTEN_RETRY_MS);
    };
    client.on('notification', () => this.wake());
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query('LISTEN outbox_events');
      this.listener = client;
    } catch (error) {
      onLost(error);
    }
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.relayBatch()) === BATCH);
    if (Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
      this.lastCleanup = Date.now();
      await this.rows.purgeProcessed();
    }
  }

  private async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await this.rows.lockPending(manager, BATCH);
      if (rows.length === 0) return 0;
      await this.queue.addBulk(
        rows.map((row) => ({
          name: row.event_type,
          data: {
            outboxId: String(row.id),
            eventType: row.event_type,
            organizationId: row.organization_id === null ? null : String(row.organization_id),
            payload: row.payload,
            occurredAt: new Date(row.created_at).toISOString(),
          },
          opts: {
            jobId: `outbox-${row.id}`,
            attempts: 8,
            backoff: { type: 'exponential', delay: 1000 },
            // Removed as it completes. The job id guards against a row relayed twice while its
            // job waits or runs; after that the processor skips a processed row. Any retention
            // rule costs PostgreSQL as the queue a scan of every kept job at each completion
            // (BullMQ's generic plan cannot use its partial index): 4.4 ms of a message's
            // 9.6 ms in bench:realtime with an hour's age, a count bound likewise (bench:api).
            removeOnComplete: true,
            removeOnFail: { age: 7 * 24 * 3600 },
          },
        })),
      );
      await this.rows.markEnqueued(
        manager,
        rows.map((row) => row.id),
      );
      return rows.length;
    });
  }
}
