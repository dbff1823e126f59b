import { Module } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { TeamController } from './team.controller';

@Module({
  controllers: [TeamController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
