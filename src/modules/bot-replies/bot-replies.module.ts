import { Module } from '@nestjs/common';
import { BotRepliesController } from './bot-replies.controller';
import { BotRepliesRepository } from './bot-replies.repository';
import { BotRepliesService } from './bot-replies.service';

@Module({
  controllers: [BotRepliesController],
  providers: [BotRepliesRepository, BotRepliesService],
  exports: [BotRepliesService],
})
export class BotRepliesModule {}
