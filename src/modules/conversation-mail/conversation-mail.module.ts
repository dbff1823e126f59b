import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { MailModule } from '../mail/mail.module';
import { MessagesModule } from '../messages/messages.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { ConversationMailProcessor } from './conversation-mail.processor';
import { ConversationMailRepository } from './conversation-mail.repository';
import { ConversationMailScheduler } from './conversation-mail.scheduler';
import { ConversationMailService } from './conversation-mail.service';
import { UnsubscribeController } from './unsubscribe.controller';

/**
 * Conversations by email, outgoing half: agent replies a visitor did not see are mailed to them
 * (grouped, threaded, answerable), and the one-click unsubscribe.
 */
@Module({
  imports: [
    AgentsModule,
    ConversationsModule,
    MailModule,
    MessagesModule,
    OutboxModule,
    RealtimeModule,
    SitesModule,
  ],
  controllers: [UnsubscribeController],
  providers: [
    ConversationMailRepository,
    ConversationMailService,
    ConversationMailScheduler,
    ConversationMailProcessor,
  ],
  exports: [ConversationMailService],
})
export class ConversationMailModule {}
