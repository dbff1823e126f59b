import { Module } from '@nestjs/common';
import { AccountLoginModule } from '../account-login/account-login.module';
import { VisitorPanelController } from './visitor-panel.controller';
import { VisitorPanelRepository } from './visitor-panel.repository';
import { VisitorPanelService } from './visitor-panel.service';

@Module({
  imports: [AccountLoginModule],
  controllers: [VisitorPanelController],
  providers: [VisitorPanelRepository, VisitorPanelService],
})
export class VisitorPanelModule {}
