import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { SitesModule } from '../sites/sites.module';
import { TicketsModule } from '../tickets/tickets.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { WidgetController } from './widget.controller';
import { WidgetService } from './widget.service';

// ConversationsModule is global (registered once, with or without its worker).
@Module({
  imports: [AgentsModule, AuthModule, SitesModule, TicketsModule, VisitorsModule],
  controllers: [WidgetController],
  providers: [WidgetService],
})
export class WidgetModule {}
