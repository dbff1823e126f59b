import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../../config/app-config';

/** What became of one webhook delivery attempt. */
export type WebhookAttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/** What became of one mail. */
export type MailOutcome = 'sent' | 'failed';

/** Gauge label names, fixed per gauge. */
type GaugeOf<L extends string> = Gauge<L>;

/**
 * The instance's Prometheus metrics (prom-client), counted only when `METRICS_TOKEN` is set
 * (`enabled`); otherwise every method returns at once and nothing is collected. Every label has
 * a bounded set of values: route templates, never paths or ids (DESIGN section 13).
 *
 * Features count their outcomes here (webhook attempts, mail); the gauges read at scrape time
 * (queues, outbox, sockets, pool) are set by the metrics feature just before it renders.
 */
@Injectable()
export class MetricsRegistry {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly webhooks: Counter<'outcome'>;
  private readonly mail: Counter<'kind' | 'outcome'>;

  constructor(config: AppConfig) {
    this.enabled = config.env.METRICS_TOKEN !== undefined;
    const registers = [this.registry];
    this.http = new Histogram({
      name: 'scs_http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, and their duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhooks = new Counter({
      name: 'scs_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.mail = new Counter({
      name: 'scs_mail_total',
      help: 'Mails this instance sent or failed to send, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    // Event-loop lag (nodejs_eventloop_lag_*), memory (process_resident_memory_bytes,
    // nodejs_heap_*), CPU, handles and GC, from prom-client's own collectors.
    if (this.enabled) collectDefaultMetrics({ register: this.registry, prefix: '' });
  }

  /** One finished HTTP request: a single histogram observation (its `_count` is the counter). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.http.observe({ method, route, status: String(status) }, seconds);
  }

  webhookAttempt(outcome: WebhookAttemptOutcome): void {
    if (this.enabled) this.webhooks.inc({ outcome });
  }

  mailed(kind: string, outcome: MailOutcome): void {
    if (this.enabled) this.mail.inc({ kind, outcome });
  }

  /** A gauge set at scrape time by whoever owns the figure. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): GaugeOf<L> {
    return new Gauge<L>({ name, help, labelNames: [...labelNames], registers: [this.registry] });
  }
}
