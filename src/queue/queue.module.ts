import { BullModule } from '@nestjs/bullmq';
import {
  type DynamicModule,
  Global,
  Injectable,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { ConnectionOptions } from 'bullmq';
import { QueueName } from './queue-names';

const PROCESSOR_METADATA = 'bullmq:processor_metadata';

/** Fails the start when a queue has no processor: a job nobody handles would wait forever. */
@Injectable()
class ProcessorCoverageCheck implements OnApplicationBootstrap {
  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    const handled = new Set<string>();
    for (const wrapper of this.discovery.getProviders()) {
      const type: unknown = wrapper.metatype;
      if (typeof type !== 'function') continue;
      const meta = Reflect.getMetadata(PROCESSOR_METADATA, type) as { name?: string } | undefined;
      if (meta?.name) handled.add(meta.name);
    }
    const missing = Object.values(QueueName).filter((name) => !handled.has(name));
    if (missing.length > 0)
      throw new Error(`No processor registered for queue(s): ${missing.join(', ')}`);
  }
}

/** BullMQ on Redis or on PostgreSQL (see queueConnection), with every queue of QueueName. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: { workers: boolean; connection: ConnectionOptions }): DynamicModule {
    const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));
    return {
      module: QueueModule,
      imports: [DiscoveryModule, BullModule.forRoot({ connection: options.connection }), queues],
      providers: options.workers ? [ProcessorCoverageCheck] : [],
      exports: [queues],
    };
  }
}
