import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfig } from '../../config/app-config';
import { QueueName, type QueuedDelivery, type WebhookDeliveryJob } from '../../queue/queue-names';
import { EndpointSlots } from './endpoint-slots';
import { STANDARD_SCHEDULE_MS } from './retry-schedule';
import { deliveryHeaders } from './signatures';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { attemptOutcome, isSuccess, responseError } from './webhook-outcome';
import type { AttemptRow, ClaimedRow } from './webhook-rows';
import { type SendResult, sendWebhook } from './webhook-sender';

/** Attempts of one endpoint in flight at once in this process; the rest wait their turn. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/**
 * An attempt finding its endpoint busy waits in line at most BUSY_RETRY_MAX_MS, then (or at once
 * when the line is full) is queued again about when a slot should be free: after the endpoint's
 * typical attempt time, kept within these bounds (and jittered).
 */
const BUSY_RETRY_MIN_MS = 20;
const BUSY_RETRY_MAX_MS = 500;
/**
 * Attempts of one endpoint waiting in line at most: a job brings all the first attempts of an
 * event, and the worker runs 16 jobs at once.
 */
const BUSY_LINE = 32;
/** A claim outlives the attempt's deadline by this much (see WebhookDeliveryRepository.claim). */
const CLAIM_MARGIN_MS = 30_000;
const EXCERPT_CHARS = 1000;
const JOB = { removeOnComplete: true, removeOnFail: 1000 };

export type AttemptResult = 'succeeded' | 'pending' | 'failed' | 'waiting' | undefined;

/**
 * Runs delivery attempts, in four steps: a slot of the endpoint (EndpointSlots), the claim of the
 * delivery, the request with the DESIGN section 6 headers, then the record of the attempt with
 * what follows from it (`attemptOutcome`: done, retried on the schedule, or failed; 410 and five
 * days of failures disable the endpoint), and the retry queued.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);
  private readonly slots = new EndpointSlots(PER_ENDPOINT_CONCURRENCY, {
    minMs: BUSY_RETRY_MIN_MS,
    maxMs: BUSY_RETRY_MAX_MS,
    line: BUSY_LINE,
  });

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    private readonly metrics: MetricsRegistry,
  ) {}

  /**
   * Queues the first attempts of an event's deliveries as one job; `eventKey` names the event, so
   * a second add of it is a no-op. Under load this is most of the queue's work: one job per event
   * instead of one per endpoint (bench/README.md).
   */
  async enqueueFirst(eventKey: string, deliveries: QueuedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.add('deliver', { deliveries }, { jobId: `${eventKey}-deliveries`, ...JOB });
  }

  /**
   * Queues attempt `attempt` of a delivery; the job id makes a second add of it a no-op (`tag`
   * makes it a new job: a wait, a sweep, a manual redelivery).
   */
  async enqueue(delivery: QueuedDelivery, attempt: number, delayMs = 0, tag = ''): Promise<void> {
    await this.queue.add(
      'deliver',
      { deliveries: [delivery] },
      { jobId: `${delivery.deliveryId}-${attempt}${tag}`, delay: delayMs, ...JOB },
    );
  }

  /**
   * One attempt of a pending delivery. With `retry` false (test pings) a failure is final.
   * `claimant` is the queue job running it (a job run again after a crash takes its claim back).
   * Returns what became of the delivery, or undefined when there was nothing to do.
   */
  async attempt(
    deliveryId: string,
    {
      retry = true,
      endpointId,
      claimant = randomUUID(),
    }: { retry?: boolean; endpointId?: string; claimant?: string } = {},
  ): Promise<AttemptResult> {
    const endpoint = endpointId ?? (await this.deliveries.endpointOf(deliveryId));
    if (endpoint === undefined) return undefined;
    if (!(await this.slots.take(endpoint))) {
      const wait = this.slots.retryDelay(endpoint);
      await this.enqueue({ deliveryId, endpointId: endpoint }, 0, wait, `-wait-${Date.now()}`);
      return 'waiting';
    }
    let sent: { delivery: ClaimedRow; logged: AttemptRow; retryAfter?: string } | undefined;
    try {
      const timeoutMs = this.config.env.WEBHOOK_TIMEOUT_MS;
      const delivery = await this.deliveries.claim(
        deliveryId,
        claimant,
        timeoutMs + CLAIM_MARGIN_MS,
      );
      if (!delivery) return undefined;
      if (!delivery.is_active) {
        await this.deliveries.failUnsent(deliveryId, delivery.attempts);
        return 'failed';
      }
      sent = { delivery, ...(await this.send(delivery)) };
    } finally {
      this.slots.release(endpoint, sent?.logged.duration_ms);
    }
    const result = await this.record(sent.delivery, sent.logged, sent.retryAfter, retry);
    this.metrics.webhookAttempt(result === 'pending' ? 'retrying' : result);
    return result;
  }

  /** The request of an attempt, and the attempt as it is logged. */
  private async send(delivery: ClaimedRow): Promise<{ logged: AttemptRow; retryAfter?: string }> {
    const startedAt = new Date();
    const result: SendResult = await sendWebhook(
      delivery.url,
      deliveryHeaders({
        event: delivery.event,
        deliveryId: delivery.id,
        body: delivery.body,
        secret: this.secrets.open(delivery.secret_sealed),
      }),
      delivery.body,
      {
        timeoutMs: this.config.env.WEBHOOK_TIMEOUT_MS,
        allowInsecure: this.config.env.WEBHOOK_ALLOW_INSECURE,
      },
    );
    const statusCode = result.statusCode ?? null;
    return {
      logged: {
        delivery_id: delivery.id,
        attempt: delivery.attempts + 1,
        started_at: startedAt,
        duration_ms: result.durationMs,
        status_code: statusCode,
        response_excerpt: result.excerpt?.slice(0, EXCERPT_CHARS) ?? null,
        error: responseError(statusCode, result.error),
      },
      retryAfter: result.retryAfter,
    };
  }

  /** Logs the attempt, applies its outcome and queues the retry it plans. */
  private async record(
    delivery: ClaimedRow,
    logged: AttemptRow,
    retryAfter: string | undefined,
    retry: boolean,
  ): Promise<'succeeded' | 'pending' | 'failed'> {
    if (isSuccess(logged.status_code)) {
      await this.deliveries.recordSuccess(logged, delivery.endpoint_id);
      return 'succeeded';
    }
    const outcome = await this.deliveries.recordFailure(logged, delivery.endpoint_id, (since) =>
      attemptOutcome(
        {
          attempt: logged.attempt,
          statusCode: logged.status_code,
          error: logged.error,
          retryAfter,
        },
        {
          retry,
          schedule: this.config.webhookRetryScheduleMs ?? STANDARD_SCHEDULE_MS,
          failingSince: since,
          now: Date.now(),
        },
      ),
    );
    if (outcome.status === 'pending') {
      await this.enqueue(
        { deliveryId: delivery.id, endpointId: delivery.endpoint_id },
        logged.attempt + 1,
        outcome.retryInMs,
      );
    }
    this.logger.debug({
      msg: 'webhook attempt failed',
      deliveryId: delivery.id,
      attempt: logged.attempt,
      code: logged.status_code,
      error: logged.error,
    });
    return outcome.status;
  }
}
