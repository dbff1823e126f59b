import { type DynamicModule, Global, Module } from '@nestjs/common';
import { INVALIDATION_LISTEN, InvalidationBus } from './invalidation-bus';
import { SiteCache } from './site-cache';

/**
 * Infrastructure any feature may use to drop what other instances keep in memory. The service
 * listens; the CLI only publishes (a one-shot command keeps nothing in memory).
 */
@Global()
@Module({})
export class InvalidationModule {
  static forRoot(options: { listen: boolean }): DynamicModule {
    return {
      module: InvalidationModule,
      providers: [
        { provide: INVALIDATION_LISTEN, useValue: options.listen },
        InvalidationBus,
        SiteCache,
      ],
      exports: [InvalidationBus, SiteCache],
    };
  }
}
