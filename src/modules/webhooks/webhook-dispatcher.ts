import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import type { DomainEventRecord } from '../outbox/domain-event';
import { OutboxService } from '../outbox/outbox.service';
import { WebhookDeliverer } from './webhook-deliverer';
import { WEBHOOK_EVENTS } from './webhook-events';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

const SWEEP_EVERY_MS = 30_000;
const SWEEP_OVERDUE_MS = 60_000;

/** The JSON body of a delivery (spec section 6): fixed once, so every retry signs the same bytes. */
export function deliveryBody(
  id: string,
  event: string,
  createdAt: string,
  data: Record<string, unknown>,
): string {
  return JSON.stringify({ id, event, created_at: createdAt, data });
}

/**
 * Turns committed domain events into deliveries: one per active endpoint subscribed to the event,
 * written (idempotently, per endpoint and outbox row) and queued. It runs as an outbox
 * subscriber, so an event committed before a crash is still delivered after the restart; a
 * sweeper re-queues any pending delivery whose job was lost.
 */
@Injectable()
export class WebhookDispatcher
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(WebhookDispatcher.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly outbox: OutboxService,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly deliverer: WebhookDeliverer,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe(WEBHOOK_EVENTS, 'WebhookDispatcher', (record) => this.dispatch(record));
  }

  onApplicationBootstrap(): void {
    if (!this.config.env.WORKERS_ENABLED) return;
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  private async dispatch(record: DomainEventRecord): Promise<void> {
    const organizationId = record.organizationId;
    if (!organizationId) return;
    const endpoints = await this.deliveries.subscribed(organizationId, record.type);
    if (endpoints.length === 0) return;
    const unsent = await this.deliveries.create(
      organizationId,
      { outboxId: record.outboxId, type: record.type, occurredAt: record.occurredAt },
      endpoints.map((endpoint) => {
        const id = randomUUID();
        return {
          id,
          endpointId: endpoint.id,
          body: deliveryBody(id, record.type, record.occurredAt, record.payload),
        };
      }),
    );
    await this.deliverer.enqueueFirst(
      `outbox-${record.outboxId}`,
      unsent.map((delivery) => ({ deliveryId: delivery.id, endpointId: delivery.endpoint_id })),
    );
  }

  private async sweep(): Promise<void> {
    try {
      for (const delivery of await this.deliveries.overdue(SWEEP_OVERDUE_MS, 500)) {
        await this.deliverer.enqueue(
          { deliveryId: delivery.id, endpointId: delivery.endpoint_id },
          delivery.attempts + 1,
          0,
          `-sweep-${Date.now()}`,
        );
      }
    } catch (error) {
      this.logger.warn({ msg: 'webhook sweep failed', err: String(error) });
    }
  }
}
