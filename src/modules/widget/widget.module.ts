import { Module } from '@nestjs/common';
import { AccountLoginModule } from '../account-login/account-login.module';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { TicketsModule } from '../tickets/tickets.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { WidgetController } from './widget.controller';
import { WidgetGateway } from './widget.gateway';
import { WidgetService } from './widget.service';

/** The widget API and the visitors' live channel (`/widget`). */
@Module({
  imports: [
    AccountLoginModule,
    AgentsModule,
    AuthModule,
    ConversationsModule,
    OrganizationsModule,
    RealtimeModule,
    SitesModule,
    TicketsModule,
    VisitorsModule,
  ],
  controllers: [WidgetController],
  providers: [WidgetService, WidgetGateway],
})
export class WidgetModule {}
