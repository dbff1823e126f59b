import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuditModule } from '../audit/audit.module';
import { PublicSitesController } from './public-sites.controller';
import { SitesController } from './sites.controller';
import { WidgetConfigController } from './widget-config.controller';
import { SitesRepository } from './sites.repository';
import { SitesService } from './sites.service';

@Module({
  imports: [AgentsModule, AuditModule],
  controllers: [SitesController, PublicSitesController, WidgetConfigController],
  providers: [SitesRepository, SitesService],
  exports: [SitesService],
})
export class SitesModule {}
