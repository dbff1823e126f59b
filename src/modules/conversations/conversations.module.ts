import { type DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { MessagesModule } from '../messages/messages.module';
import { AgentChatService } from './agent-chat.service';
import { AgentConversationsController } from './agent-conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';
import { OpenConversationsRepository } from './open-conversations.repository';
import { MissedChatsProcessor } from './missed-chats.processor';
import { MissedChatsScheduler } from './missed-chats.scheduler';
import { PublicConversationsController } from './public-conversations.controller';
import { VisitorChatService } from './visitor-chat.service';

/** Conversations and their lifecycle; the missed-chat worker runs where workers run. */
@Module({})
export class ConversationsModule {
  static forRoot(options: { workers: boolean }): DynamicModule {
    return {
      module: ConversationsModule,
      global: true,
      imports: [AgentsModule, MessagesModule],
      controllers: [PublicConversationsController, AgentConversationsController],
      providers: [
        ConversationsRepository,
        OpenConversationsRepository,
        InboxRepository,
        InboxService,
        ConversationsService,
        AgentChatService,
        VisitorChatService,
        MissedChatsScheduler,
        ...(options.workers ? [MissedChatsProcessor] : []),
      ],
      exports: [ConversationsService, VisitorChatService],
    };
  }
}
