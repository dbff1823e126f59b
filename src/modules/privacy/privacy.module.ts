import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { PrivacyController } from './privacy.controller';
import { PrivacyRepository } from './privacy.repository';
import { PrivacyService } from './privacy.service';
import { VisitorRetentionProcessor } from './visitor-retention.processor';

/** A visitor's export and erasure, and the sites' retention job (DESIGN section 12). */
@Module({
  imports: [AuditModule, OutboxModule, RealtimeModule],
  controllers: [PrivacyController],
  providers: [PrivacyRepository, PrivacyService, VisitorRetentionProcessor],
})
export class PrivacyModule {}
