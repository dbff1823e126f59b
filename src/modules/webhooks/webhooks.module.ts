import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { OutboxModule } from '../outbox/outbox.module';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Outgoing webhooks; the delivery worker runs where workers run (QueueWorkers). */
@Module({
  imports: [AuditModule, OutboxModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhookDeliveryRepository,
    WebhooksService,
    WebhookDeliverer,
    WebhookDispatcher,
    WebhookDeliveryProcessor,
  ],
})
export class WebhooksModule {}
