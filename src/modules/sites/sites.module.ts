import { Module } from '@nestjs/common';
import { PublicSitesController } from './public-sites.controller';
import { SitesController } from './sites.controller';
import { WidgetConfigController } from './widget-config.controller';
import { SitesRepository } from './sites.repository';
import { SitesService } from './sites.service';

@Module({
  controllers: [SitesController, PublicSitesController, WidgetConfigController],
  providers: [SitesRepository, SitesService],
  exports: [SitesService],
})
export class SitesModule {}
