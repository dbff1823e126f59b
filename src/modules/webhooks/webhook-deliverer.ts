import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppConfig } from '../../config/app-config';
import { QueueName, type WebhookDeliveryJob } from '../../queue/queue-names';
import { nextDelay, parseRetryAfter, STANDARD_SCHEDULE_MS } from './retry-schedule';
import { deliveryHeaders } from './signatures';
import { type SendResult, sendWebhook } from './webhook-sender';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import type { AttemptRow } from './webhooks.repository';

/** Attempts of one endpoint in flight at once in this process; the rest wait their turn. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/**
 * An attempt finding its endpoint busy is queued again about when a slot should be free: after
 * the endpoint's typical attempt time, kept within these bounds (and jittered).
 */
const BUSY_RETRY_MIN_MS = 20;
const BUSY_RETRY_MAX_MS = 500;
/** An endpoint failing every attempt this long is disabled (DESIGN section 6). */
const FAILING_DISABLE_MS = 5 * 24 * 3_600_000;
const EXCERPT_CHARS = 1000;

/**
 * Runs delivery attempts: claims the delivery, sends it with the DESIGN section 6 headers, logs
 * the attempt and decides what follows (done, retry on the schedule, or failed; 410 and five days
 * of failures disable the endpoint), all in one transaction, then queues the retry.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);
  private readonly inFlight = new Map<string, number>();
  /** Each endpoint's typical attempt time in this process (moving average, ms). */
  private readonly typicalMs = new Map<string, number>();

  constructor(
    private readonly webhooks: WebhookDeliveryRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
  ) {}

  /** Queues attempt `attempt` of a delivery; the job id makes a second add of it a no-op. */
  async enqueue(deliveryId: string, attempt: number, delayMs = 0, tag = ''): Promise<void> {
    await this.queue.add(
      'deliver',
      { deliveryId },
      {
        jobId: `${deliveryId}-${attempt}${tag}`,
        delay: delayMs,
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  /**
   * One attempt of a pending delivery. With `retry` false (test pings) a failure is final.
   * Returns what became of the delivery, or undefined when there was nothing to do.
   */
  async attempt(
    deliveryId: string,
    { retry = true }: { retry?: boolean } = {},
  ): Promise<'succeeded' | 'pending' | 'failed' | 'waiting' | undefined> {
    const delivery = await this.webhooks.sendable(deliveryId);
    if (!delivery || delivery.status !== 'pending') return undefined;
    const endpointId = delivery.endpoint_id;
    const attempt = delivery.attempts + 1;
    const busy = () => (this.inFlight.get(endpointId) ?? 0) >= PER_ENDPOINT_CONCURRENCY;
    if (busy()) return this.later(deliveryId, endpointId, attempt);
    const timeoutMs = this.config.env.WEBHOOK_TIMEOUT_MS;
    if (!(await this.webhooks.claim(deliveryId, delivery.attempts, timeoutMs + 30_000))) {
      return undefined;
    }
    if (!delivery.is_active) {
      await this.dataSource.transaction((manager) =>
        this.webhooks.settleDelivery(manager, deliveryId, {
          attempts: delivery.attempts,
          status: 'failed',
          statusCode: null,
          nextAttemptAt: null,
        }),
      );
      return 'failed';
    }
    // Checked again and the slot taken in one tick: attempts that passed the first check
    // together cannot all send. One that lost the race hands its claim back.
    if (busy()) {
      await this.webhooks.unclaim(deliveryId, delivery.attempts);
      return this.later(deliveryId, endpointId, attempt);
    }
    this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 0) + 1);
    const release = () => this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 1) - 1);

    const startedAt = new Date();
    let result: SendResult;
    try {
      result = await sendWebhook(
        delivery.url,
        deliveryHeaders({
          event: delivery.event,
          deliveryId,
          body: delivery.body,
          secret: this.secrets.open(delivery.secret_sealed),
        }),
        delivery.body,
        { timeoutMs, allowInsecure: this.config.env.WEBHOOK_ALLOW_INSECURE },
      );
    } finally {
      release();
    }

    const typical = this.typicalMs.get(endpointId);
    this.typicalMs.set(
      endpointId,
      typical === undefined ? result.durationMs : typical * 0.8 + result.durationMs * 0.2,
    );

    const code = result.statusCode ?? null;
    const succeeded = code !== null && code >= 200 && code < 300;
    const throttled = code === 429 || code === 503;
    const delay = retry
      ? nextDelay(
          attempt,
          this.config.webhookRetryScheduleMs ?? STANDARD_SCHEDULE_MS,
          throttled ? parseRetryAfter(result.retryAfter) : undefined,
        )
      : undefined;

    const logged: AttemptRow = {
      delivery_id: deliveryId,
      attempt,
      started_at: startedAt,
      duration_ms: result.durationMs,
      status_code: code,
      response_excerpt: result.excerpt?.slice(0, EXCERPT_CHARS) ?? null,
      error:
        result.error ??
        (code !== null && code >= 300 && code < 400 ? 'redirect not followed' : null),
    };
    if (succeeded && logged.error === null) {
      await this.webhooks.recordSuccess(logged, endpointId);
      return 'succeeded';
    }

    const outcome = await this.dataSource.transaction(async (manager) => {
      // Delivery is at least once: losing this record in a crash means one more attempt, not a
      // lost event, so the commit need not wait for the disk.
      await manager.query(`SET LOCAL synchronous_commit = off`);
      await this.webhooks.recordAttempt(manager, logged);
      const { failing_since: failingSince } = await this.webhooks.endpointOutcome(
        manager,
        endpointId,
        succeeded,
      );
      const settle = (status: 'succeeded' | 'pending' | 'failed', nextAttemptAt: Date | null) =>
        this.webhooks
          .settleDelivery(manager, deliveryId, {
            attempts: attempt,
            status,
            statusCode: code,
            nextAttemptAt,
          })
          .then(() => status);
      if (succeeded) return settle('succeeded', null);
      if (code === 410) {
        await this.webhooks.disableEndpoint(manager, endpointId, 'gone');
        return settle('failed', null);
      }
      if (failingSince && Date.now() - new Date(failingSince).getTime() >= FAILING_DISABLE_MS) {
        await this.webhooks.disableEndpoint(manager, endpointId, 'failing');
        return settle('failed', null);
      }
      if (delay === undefined) return settle('failed', null);
      return settle('pending', new Date(Date.now() + delay));
    });
    if (outcome === 'pending' && delay !== undefined) {
      await this.enqueue(deliveryId, attempt + 1, delay);
    }
    if (!succeeded) {
      this.logger.debug({
        msg: 'webhook attempt failed',
        deliveryId,
        attempt,
        code,
        error: result.error,
      });
    }
    return outcome;
  }

  /** Queues the attempt again about when its endpoint should have a free slot. */
  private async later(deliveryId: string, endpointId: string, attempt: number): Promise<'waiting'> {
    const typical = this.typicalMs.get(endpointId) ?? BUSY_RETRY_MAX_MS;
    const wait = Math.min(BUSY_RETRY_MAX_MS, Math.max(BUSY_RETRY_MIN_MS, typical));
    const jittered = Math.round(wait * (0.5 + Math.random()));
    await this.enqueue(deliveryId, attempt, jittered, `-wait-${Date.now()}`);
    return 'waiting';
  }
}
