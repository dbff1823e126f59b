import { Module } from '@nestjs/common';
import { BotRepliesModule } from '../bot-replies/bot-replies.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { KnowledgeBaseModule } from '../knowledge-base/knowledge-base.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { AnswerBotController, WidgetAnswerBotController } from './answer-bot.controller';
import { AnswerBotRepository } from './answer-bot.repository';
import { AnswerBotService } from './answer-bot.service';
import { LanguageModel } from './language-model';

@Module({
  imports: [BotRepliesModule, ConversationsModule, KnowledgeBaseModule, OutboxModule, SitesModule],
  controllers: [AnswerBotController, WidgetAnswerBotController],
  providers: [AnswerBotRepository, AnswerBotService, LanguageModel],
})
export class AnswerBotModule {}
