import { Global, Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import {
  PostgresRateLimitStore,
  RATE_LIMIT_STORE,
  RedisRateLimitStore,
  type RateLimitStore,
} from './rate-limit.store';
import { ReservedBudget } from './reserved-budget';

const REDIS_CLIENT = Symbol('RATE_LIMIT_REDIS');

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis | undefined) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.env.REDIS_URL
          ? new Redis(config.env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true })
          : undefined,
    },
    {
      provide: RATE_LIMIT_STORE,
      inject: [REDIS_CLIENT, DataSource],
      useFactory: (redis: Redis | undefined, dataSource: DataSource): RateLimitStore =>
        redis ? new RedisRateLimitStore(redis) : new PostgresRateLimitStore(dataSource),
    },
    {
      provide: ReservedBudget,
      inject: [RATE_LIMIT_STORE],
      useFactory: (store: RateLimitStore) => new ReservedBudget(store),
    },
    RedisCloser,
  ],
  exports: [RATE_LIMIT_STORE, ReservedBudget],
})
export class RateLimitModule {}
