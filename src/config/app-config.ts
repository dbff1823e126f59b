import { Injectable } from '@nestjs/common';
import path from 'node:path';
import { Environment } from './environment';

/** The validated configuration, with derived values, injected wherever settings are read. */
@Injectable()
export class AppConfig {
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly webhookRetryScheduleMs: number[] | undefined;

  constructor(readonly env: Environment) {
    this.publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
    this.dataDir = path.resolve(env.DATA_DIR);
    this.webhookRetryScheduleMs = env.WEBHOOK_RETRY_SCHEDULE_MS?.split(',').map((part) =>
      Number(part.trim()),
    );
  }

  get queueBackend(): 'redis' | 'postgres' {
    return this.env.REDIS_URL ? 'redis' : 'postgres';
  }
}
