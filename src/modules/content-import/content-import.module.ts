import { Module } from '@nestjs/common';
import { BotRepliesModule } from '../bot-replies/bot-replies.module';
import { KnowledgeBaseModule } from '../knowledge-base/knowledge-base.module';
import { SitesModule } from '../sites/sites.module';
import { ContentImportController } from './content-import.controller';
import { ContentImportProcessor } from './content-import.processor';
import { ContentImportRepository } from './content-import.repository';
import { ContentImportService } from './content-import.service';

@Module({
  imports: [BotRepliesModule, KnowledgeBaseModule, SitesModule],
  controllers: [ContentImportController],
  providers: [ContentImportRepository, ContentImportService, ContentImportProcessor],
  exports: [ContentImportService],
})
export class ContentImportModule {}
