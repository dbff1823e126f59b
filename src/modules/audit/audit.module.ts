import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';

/**
 * The audit log (DESIGN section 12). A feature that changes something imports this module and
 * records it with `AuditLogService.record(manager, organizationId, entry)` inside its own
 * transaction; the audit module imports no feature, so any feature may import it.
 */
@Module({
  controllers: [AuditLogController],
  providers: [AuditLogRepository, AuditLogService],
  exports: [AuditLogService],
})
export class AuditModule {}
