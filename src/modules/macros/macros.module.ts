import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CannedResponsesModule } from '../canned-responses/canned-responses.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { LabelsModule } from '../labels/labels.module';
import { MacrosController } from './macros.controller';
import { MacrosRepository } from './macros.repository';
import { MacrosService } from './macros.service';

@Module({
  imports: [AgentsModule, CannedResponsesModule, ConversationsModule, LabelsModule],
  controllers: [MacrosController],
  providers: [MacrosRepository, MacrosService],
  exports: [MacrosService],
})
export class MacrosModule {}
