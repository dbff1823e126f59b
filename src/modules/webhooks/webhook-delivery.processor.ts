import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueueName, type WebhookDeliveryJob } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { QUICK_RECOVERY } from '../../queue/worker-options';
import { WebhookDeliverer } from './webhook-deliverer';

/**
 * Webhook attempts, many at once (each mostly waits on the network): a job holds the first
 * attempts of one event's deliveries, or one retry. WebhookDeliverer keeps any one endpoint to a
 * few attempts at once, so a slow endpoint cannot take every slot.
 */
@Injectable()
@QueueWorker(QueueName.WebhookDeliveries, { concurrency: 16, ...QUICK_RECOVERY })
export class WebhookDeliveryProcessor implements JobProcessor<WebhookDeliveryJob> {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  async process(job: Job<WebhookDeliveryJob>): Promise<void> {
    const { deliveries, deliveryId } = job.data;
    if (!deliveries) {
      if (deliveryId) await this.deliverer.attempt(deliveryId, { claimant: job.id });
      return;
    }
    // The job id names the claims, so the job run again after a crash takes them back at once.
    await Promise.all(
      deliveries.map((delivery) =>
        this.deliverer.attempt(delivery.deliveryId, {
          endpointId: delivery.endpointId,
          claimant: job.id,
        }),
      ),
    );
  }
}
