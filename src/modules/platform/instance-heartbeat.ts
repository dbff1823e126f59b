import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '../../config/app-config';
import { VERSION } from '../../config/version';
import { PlatformRepository } from './platform.repository';

/** How often each instance writes its heartbeat, and how long silence means it is gone. */
export const HEARTBEAT_MS = 15_000;
export const GONE_AFTER_SECONDS = 60;

/**
 * Each running instance (the HTTP app, not the CLI, which has no HTTP server) writes a heartbeat
 * row every 15 s and removes it when it stops; the console lists those heard from in the last
 * minute (`GET /api/platform/instances`).
 */
@Injectable()
export class InstanceHeartbeat implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly id = randomUUID();
  private readonly startedAt = new Date();
  private timer?: NodeJS.Timeout;
  private readonly logger = new Logger('instances');

  constructor(
    private readonly repository: PlatformRepository,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.adapterHost.httpAdapter) return;
    await this.beat();
    this.timer = setInterval(() => {
      this.beat().catch((error: unknown) =>
        this.logger.warn({ msg: 'heartbeat not written', err: error }),
      );
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    await this.repository.forgetInstance(this.id).catch(() => undefined);
  }

  private beat(): Promise<void> {
    return this.repository.heartbeat({
      id: this.id,
      hostname: hostname(),
      pid: process.pid,
      version: VERSION,
      workers_enabled: this.config.env.WORKERS_ENABLED,
      started_at: this.startedAt,
    });
  }
}
