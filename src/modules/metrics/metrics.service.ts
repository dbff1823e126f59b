import { Injectable } from '@nestjs/common';
import { sameBytes, sha256 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfig } from '../../config/app-config';
import { MetricsCollector } from './metrics.collector';

/** `/metrics`: the token check, then the scrape-time figures and the render. */
@Injectable()
export class MetricsService {
  private readonly token: Buffer | undefined;

  constructor(
    config: AppConfig,
    private readonly registry: MetricsRegistry,
    private readonly collector: MetricsCollector,
  ) {
    const token = config.env.METRICS_TOKEN;
    this.token = token === undefined ? undefined : sha256(token);
  }

  /** The text exposition, or a 404 without a configured token or with another one. */
  async scrape(authorization: string | undefined): Promise<{ contentType: string; body: string }> {
    const sent = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    // Hashes compared, so the comparison takes the same time whatever the length sent.
    if (!this.token || !sent || !sameBytes(sha256(sent), this.token)) throw AppError.notFound();
    await this.collector.collect();
    return {
      contentType: this.registry.registry.contentType,
      body: await this.registry.registry.metrics(),
    };
  }
}
