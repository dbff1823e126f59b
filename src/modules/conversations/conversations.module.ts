import { EmailRepliesService } from './email-replies.service';
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MessagesModule } from '../messages/messages.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AgentChatService } from './agent-chat.service';
import { AgentConversationsController } from './agent-conversations.controller';
import { AgentGateway } from './agent.gateway';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';
import { MissedChatsProcessor } from './missed-chats.processor';
import { SnoozeWakeSweep } from './snooze-wake.sweep';
import { MissedChatsScheduler } from './missed-chats.scheduler';
import { OpenConversationsRepository } from './open-conversations.repository';
import { PublicConversationsController } from './public-conversations.controller';
import { VisitorChatService } from './visitor-chat.service';
import { ConversationReviewsService } from './conversation-reviews.service';
import { WidgetChatController } from './widget-chat.controller';
import { WidgetGateway } from './widget.gateway';

/**
 * Conversations and their lifecycle, both sides' live channels (`/agent`, `/widget`), the
 * visitor's chat routes and the missed-chat worker (run where workers run: QueueWorkers).
 */
@Module({
  imports: [
    AgentsModule,
    AuthModule,
    IdempotencyModule,
    MessagesModule,
    OrganizationsModule,
    OutboxModule,
    RealtimeModule,
    SitesModule,
    VisitorsModule,
  ],
  controllers: [PublicConversationsController, AgentConversationsController, WidgetChatController],
  providers: [
    ConversationsRepository,
    OpenConversationsRepository,
    EmailRepliesService,
    InboxRepository,
    InboxService,
    ConversationsService,
    AgentChatService,
    VisitorChatService,
    ConversationReviewsService,
    MissedChatsScheduler,
    MissedChatsProcessor,
    SnoozeWakeSweep,
    AgentGateway,
    WidgetGateway,
  ],
  exports: [
    AgentChatService,
    ConversationsService,
    VisitorChatService,
    ConversationReviewsService,
    EmailRepliesService,
  ],
})
export class ConversationsModule {}
