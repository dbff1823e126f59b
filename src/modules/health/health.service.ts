import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { VERSION } from '../../config/version';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../database/database-runtime';
import { query, sql } from '../../database/sql';
import { QueueName } from '../../queue/queue-names';

const CHECK_TIMEOUT_MS = 2000;

export type CheckState = 'up' | 'down';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
export class HealthService {
  private readonly startedAt = new Date();
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue,
    @Inject(DATABASE_RUNTIME) private readonly database: DatabaseRuntime,
    private readonly config: AppConfig,
  ) {}

  /**
   * From SIGTERM on, readiness fails (a load balancer stops sending requests here) while the
   * instance still serves what reaches it (see graceful-shutdown.ts).
   */
  markStopping(): void {
    this.stopping = true;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async checks(): Promise<{ database: CheckState; queue: CheckState }> {
    const [database, queue] = await Promise.all([
      this.probe(() => sql(this.dataSource, query<{ ok: number }>`SELECT 1 AS ok`)),
      this.probe(() => this.queue.getJobCounts('waiting')),
    ]);
    return { database, queue };
  }

  async status() {
    const checks = await this.checks();
    return {
      version: VERSION,
      started_at: this.startedAt.toISOString(),
      uptime_seconds: Math.round(process.uptime()),
      database: { status: checks.database, mode: this.database.mode },
      queue: { status: checks.queue, backend: this.config.queueBackend },
    };
  }

  private async probe(check: () => Promise<unknown>): Promise<CheckState> {
    try {
      await withTimeout(check(), CHECK_TIMEOUT_MS);
      return 'up';
    } catch {
      return 'down';
    }
  }
}
