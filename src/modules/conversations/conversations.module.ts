import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { MessagesModule } from '../messages/messages.module';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { PublicConversationsController } from './public-conversations.controller';

@Module({
  imports: [AgentsModule, MessagesModule],
  controllers: [PublicConversationsController],
  providers: [ConversationsRepository, ConversationsService],
  exports: [ConversationsService],
})
export class ConversationsModule {}
