import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { KnowledgeBaseController } from './knowledge-base.controller';
import { KnowledgeBaseRepository } from './knowledge-base.repository';
import { KnowledgeBaseSearch } from './knowledge-base.search';
import { KnowledgeBaseService } from './knowledge-base.service';
import { KnowledgeBasePublic } from './knowledge-base.public';
import { WidgetKbController } from './widget-kb.controller';
import { HelpCenterService } from './help-center.service';
import { PublicKbController } from './public-kb.controller';
import { IdempotencyModule } from '../idempotency/idempotency.module';

@Module({
  imports: [SitesModule, OutboxModule, IdempotencyModule],
  controllers: [KnowledgeBaseController, WidgetKbController, PublicKbController],
  providers: [
    KnowledgeBaseRepository,
    KnowledgeBaseService,
    KnowledgeBaseSearch,
    KnowledgeBasePublic,
    HelpCenterService,
  ],
  exports: [KnowledgeBaseService, KnowledgeBaseSearch, KnowledgeBasePublic, HelpCenterService],
})
export class KnowledgeBaseModule {}
