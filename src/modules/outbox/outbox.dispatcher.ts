import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';
import { Batcher } from '../../common/batcher';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../database/database-runtime';
import { type BackgroundLoop, BackgroundWorker } from '../../queue/queue-worker';
import type { DomainEventRecord } from './domain-event';
import { outboxRetryDelay } from './outbox-retry';
import { type ClaimedRow, OutboxWorkerRepository } from './outbox-worker.repository';
import { OutboxService } from './outbox.service';

/** Events handled at once per instance. */
const CONCURRENCY = 10;
const POLL_MS = 1000;
/** A claim lasts this long unless renewed: a killed instance's events come back after it. */
const LEASE_MS = 5000;
const RENEW_EVERY_MS = 2000;
const LISTEN_RETRY_MS = 3000;
const CLEANUP_EVERY_MS = 10 * 60 * 1000;
/**
 * Hands committed outbox rows to their subscribers: the outbox table is the queue. It claims due
 * rows for a short lease (`FOR UPDATE SKIP LOCKED`, so several instances share the work), runs
 * each row's handlers, and marks the row processed, or schedules its retry. It wakes on the
 * commit of any transaction that wrote an event (LISTEN/NOTIFY) and polls every second besides,
 * for retries and a lost listener. Delivery is at least once: a subscriber must be idempotent.
 */
@Injectable()
@BackgroundWorker()
export class OutboxDispatcher implements BackgroundLoop, OnApplicationBootstrap {
  private readonly logger = new Logger(OutboxDispatcher.name);
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly processed = new Batcher<string, void>(async (ids) => {
    await this.rows.markProcessed(ids);
    return ids.map(() => undefined);
  });
  private listener?: Client;
  private poll?: NodeJS.Timeout;
  private renewal?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  /**
   * Whether due rows may be waiting: the last claim filled every free place, or a wake found
   * none free. Only then does a finished row start a claim; otherwise the next commit's
   * notification (or the poll) does, and no claim goes out to find nothing.
   */
  private backlog = false;
  private stopped = false;
  private lastCleanup = 0;

  constructor(
    private readonly outbox: OutboxService,
    private readonly rows: OutboxWorkerRepository,
    @Inject(DATABASE_RUNTIME) private readonly database: DatabaseRuntime,
  ) {}

  /** Every subscriber has subscribed in its module's init: a consumer the table names must have. */
  onApplicationBootstrap(): void {
    const missing = this.outbox.missingSubscriptions();
    if (missing.length > 0) {
      throw new Error(
        `Consumers named in outbox/events/subscriptions.ts that did not subscribe: ${missing.join(', ')}`,
      );
    }
  }

  async start(): Promise<void> {
    await this.listen();
    this.poll = setInterval(() => this.wake(), POLL_MS);
    this.renewal = setInterval(() => this.renew(), RENEW_EVERY_MS);
    this.wake();
  }

  /** Before the queues and the database close: claims no more, lets running handlers finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearInterval(this.renewal);
    clearTimeout(this.retry);
    await this.draining;
    await Promise.all(this.inFlight.values());
    await this.listener?.end().catch(() => undefined);
  }

  /** Starts a claiming pass, or asks the running one to go round once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'outbox claim failed', err: String(error) }),
      )
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Claims rows while there is room and there are rows; each finished one makes room again. */
  private async drain(): Promise<void> {
    for (;;) {
      const room = CONCURRENCY - this.inFlight.size;
      if (this.stopped) break;
      if (room <= 0) {
        this.backlog = true;
        break;
      }
      const claimed = await this.rows.claim(room, LEASE_MS);
      for (const row of claimed) this.run(row);
      if (claimed.length < room) {
        this.backlog = false;
        break;
      }
    }
    if (Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
      this.lastCleanup = Date.now();
      await this.rows.purgeOld();
    }
  }

  private run(row: ClaimedRow): void {
    const running = this.handle(row).finally(() => {
      this.inFlight.delete(row.id);
      if (this.backlog) this.wake();
    });
    this.inFlight.set(row.id, running);
  }

  private async handle(row: ClaimedRow): Promise<void> {
    // The row was written by `publish`, so its payload is the one its type carries.
    const record = {
      outboxId: String(row.id),
      type: row.event_type,
      organizationId: row.organization_id === null ? null : String(row.organization_id),
      payload: row.payload,
      occurredAt: new Date(row.created_at).toISOString(),
    } as unknown as DomainEventRecord;
    try {
      for (const handler of this.outbox.handlersFor(row.event_type)) await handler(record);
    } catch (error) {
      const delay = outboxRetryDelay(row.attempts);
      const message = error instanceof Error ? error.message : String(error);
      this.logger[delay === undefined ? 'error' : 'warn']({
        msg: delay === undefined ? 'outbox event given up' : 'outbox event failed; will retry',
        outbox_id: row.id,
        event: row.event_type,
        attempt: row.attempts,
        err: message,
      });
      await this.rows
        .recordFailure(row.id, message.slice(0, 1000), delay)
        .catch((failure: unknown) =>
          this.logger.warn({ msg: 'outbox failure not recorded', err: String(failure) }),
        );
      return;
    }
    // Not marked (its lease runs out and it is handled again) if this fails: at least once.
    await this.processed
      .add(row.id)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'outbox row not marked processed', err: String(error) }),
      );
  }

  /** Keeps the leases of the rows being handled (a handler may take longer than one lease). */
  private renew(): void {
    if (this.inFlight.size === 0) return;
    this.rows
      .renew([...this.inFlight.keys()], LEASE_MS)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'outbox lease not renewed', err: String(error) }),
      );
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
}
