import { Module } from '@nestjs/common';
import { SitesModule } from '../sites/sites.module';
import { WebController } from './web.controller';

/** Serves the widget loader, the chat frame and the demo page (the dashboard: browser-apps.ts). */
@Module({
  imports: [SitesModule],
  controllers: [WebController],
})
export class WebModule {}
