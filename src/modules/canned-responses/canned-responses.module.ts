import { Module } from '@nestjs/common';
import { CannedResponsesController } from './canned-responses.controller';
import { CannedResponsesRepository } from './canned-responses.repository';
import { CannedResponsesService } from './canned-responses.service';

@Module({
  controllers: [CannedResponsesController],
  providers: [CannedResponsesRepository, CannedResponsesService],
  exports: [CannedResponsesService],
})
export class CannedResponsesModule {}
