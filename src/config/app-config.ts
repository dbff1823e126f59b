import { Injectable } from '@nestjs/common';
import path from 'node:path';
import { Environment } from './environment';

/** The validated configuration, with derived values, injected wherever settings are read. */
@Injectable()
export class AppConfig {
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly webhookRetryScheduleMs: number[] | undefined;
  /** Origins whose cookie-authenticated agent requests may change anything. */
  readonly agentOrigins: ReadonlySet<string>;
  /** The Express `trust proxy` setting. */
  readonly trustProxy: boolean | number | string;
  /** The header the proxy puts the visitor's country in, lower-cased; undefined when unset. */
  readonly countryHeader: string | undefined;
  /** The domain of reply and forwarding addresses (MAIL_REPLY_DOMAIN, else PUBLIC_URL's host). */
  readonly mailReplyDomain: string;

  constructor(readonly env: Environment) {
    this.publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
    this.dataDir = path.resolve(env.DATA_DIR);
    this.webhookRetryScheduleMs = env.WEBHOOK_RETRY_SCHEDULE_MS?.split(',').map((part) =>
      Number(part.trim()),
    );
    this.agentOrigins = new Set([
      new URL(this.publicUrl).origin,
      ...(env.DASHBOARD_ORIGINS ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0)
        .map((part) => new URL(part).origin),
    ]);
    this.countryHeader = env.COUNTRY_HEADER?.toLowerCase();
    this.mailReplyDomain = (
      env.MAIL_REPLY_DOMAIN ?? new URL(this.publicUrl).hostname
    ).toLowerCase();
    const trust = env.TRUST_PROXY.trim();
    this.trustProxy =
      trust === 'true'
        ? true
        : trust === 'false'
          ? false
          : /^\d+$/.test(trust)
            ? Number(trust)
            : trust;
  }

  get queueBackend(): 'redis' | 'postgres' {
    return this.env.REDIS_URL ? 'redis' : 'postgres';
  }
}
