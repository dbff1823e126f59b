import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import {
  AttachmentDownloadsController,
  AttachmentUploadsController,
} from './attachments.controller';
import { AttachmentsMaintenanceRepository } from './attachments-maintenance.repository';
import { AttachmentsRepository } from './attachments.repository';
import { AttachmentsService } from './attachments.service';
import { AttachmentUploadInterceptor } from './upload.interceptor';

@Module({
  imports: [IdempotencyModule],
  controllers: [AttachmentUploadsController, AttachmentDownloadsController],
  providers: [
    AttachmentsRepository,
    AttachmentsMaintenanceRepository,
    AttachmentsService,
    AttachmentUploadInterceptor,
  ],
  exports: [AttachmentsService],
})
export class AttachmentsModule {}
