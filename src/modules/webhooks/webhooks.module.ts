import { type DynamicModule, Module } from '@nestjs/common';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Outgoing webhooks; the delivery worker runs where workers run. */
@Module({})
export class WebhooksModule {
  static forRoot(options: { workers: boolean }): DynamicModule {
    return {
      module: WebhooksModule,
      controllers: [WebhooksController],
      providers: [
        WebhooksRepository,
        WebhookDeliveryRepository,
        WebhooksService,
        WebhookDeliverer,
        WebhookDispatcher,
        ...(options.workers ? [WebhookDeliveryProcessor] : []),
      ],
    };
  }
}
