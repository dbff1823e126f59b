import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueueName, type WebhookDeliveryJob } from '../../queue/queue-names';
import { QUICK_RECOVERY } from '../../queue/worker-options';
import { WebhookDeliverer } from './webhook-deliverer';

/**
 * Webhook attempts, many at once (each mostly waits on the network); WebhookDeliverer keeps any
 * one endpoint to a few of them, so a slow endpoint cannot take every slot.
 */
@Processor(QueueName.WebhookDeliveries, { concurrency: 32, ...QUICK_RECOVERY })
export class WebhookDeliveryProcessor extends WorkerHost implements BeforeApplicationShutdown {
  constructor(private readonly deliverer: WebhookDeliverer) {
    super();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }

  async process(job: Job<WebhookDeliveryJob>): Promise<void> {
    await this.deliverer.attempt(job.data.deliveryId, {
      endpointId: job.data.endpointId,
      claimant: job.id,
    });
  }
}
