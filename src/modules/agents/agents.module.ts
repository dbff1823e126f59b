import { Module } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { PresenceController } from './presence.controller';
import { PublicAgentsController } from './public-agents.controller';
import { TeamController } from './team.controller';

@Module({
  controllers: [TeamController, PublicAgentsController, PresenceController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
