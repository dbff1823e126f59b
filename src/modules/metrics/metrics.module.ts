import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { MetricsCollector } from './metrics.collector';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` (DESIGN section 13). The registry and the counters features bump are
 * infrastructure (common/metrics); this module reads the figures owned by the outbox, the
 * queues, the real-time gateways and the pool at scrape time.
 */
@Module({
  imports: [OutboxModule, RealtimeModule],
  controllers: [MetricsController],
  providers: [MetricsCollector, MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
