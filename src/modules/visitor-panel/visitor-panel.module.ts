import { Module } from '@nestjs/common';
import { VisitorPanelController } from './visitor-panel.controller';
import { VisitorPanelRepository } from './visitor-panel.repository';
import { VisitorPanelService } from './visitor-panel.service';

@Module({
  controllers: [VisitorPanelController],
  providers: [VisitorPanelRepository, VisitorPanelService],
})
export class VisitorPanelModule {}
