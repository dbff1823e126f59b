import { Module } from '@nestjs/common';
import { AuditModule } from './audit.module';
import { AuditRetentionProcessor } from './audit-retention.processor';

/**
 * The audit log's retention job, apart from AuditModule: the CLI records audit rows through
 * AuditModule without any queue, and only the app runs this.
 */
@Module({ imports: [AuditModule], providers: [AuditRetentionProcessor] })
export class AuditRetentionModule {}
