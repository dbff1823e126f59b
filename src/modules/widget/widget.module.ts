import { Module } from '@nestjs/common';
import { AccountLoginModule } from '../account-login/account-login.module';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { ConversationMailModule } from '../conversation-mail/conversation-mail.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { WidgetController } from './widget.controller';
import { WidgetService } from './widget.service';

/**
 * The widget session (init, profile, consent, its end). The visitor's chat and live channel
 * (`/widget`) are ConversationsModule's, its tickets TicketsModule's.
 */
@Module({
  imports: [
    AccountLoginModule,
    AgentsModule,
    AuthModule,
    ConversationMailModule,
    ConversationsModule,
    RealtimeModule,
    SitesModule,
    VisitorsModule,
  ],
  controllers: [WidgetController],
  providers: [WidgetService],
})
export class WidgetModule {}
