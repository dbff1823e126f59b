import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationMailModule } from '../conversation-mail/conversation-mail.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { MailModule } from '../mail/mail.module';
import { MessagesModule } from '../messages/messages.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { TranscriptsController } from './transcripts.controller';
import { TranscriptsService } from './transcripts.service';

/** The conversation by email: on the visitor's request and when a chat is closed. */
@Module({
  imports: [
    AgentsModule,
    ConversationMailModule,
    ConversationsModule,
    MailModule,
    MessagesModule,
    OutboxModule,
    SitesModule,
    VisitorsModule,
  ],
  controllers: [TranscriptsController],
  providers: [TranscriptsService],
})
export class TranscriptsModule {}
