import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueueName, type WebhookDeliveryJob } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { WebhookDeliverer } from './webhook-deliverer';

/**
 * Webhook attempts, many at once (each mostly waits on the network); WebhookDeliverer keeps any
 * one endpoint to a few of them, so a slow endpoint cannot take every slot.
 */
@Injectable()
@QueueWorker(QueueName.WebhookDeliveries, { concurrency: 32 })
export class WebhookDeliveryProcessor implements JobProcessor<WebhookDeliveryJob> {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  async process(job: Job<WebhookDeliveryJob>): Promise<void> {
    await this.deliverer.attempt(job.data.deliveryId);
  }
}
