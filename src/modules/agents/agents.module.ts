import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { PresenceController } from './presence.controller';
import { PublicAgentsController } from './public-agents.controller';
import { TeamController } from './team.controller';

// RealtimeModule is global in the app; imported here as well for the CLI, which builds without it.
@Module({
  imports: [RealtimeModule],
  controllers: [TeamController, PublicAgentsController, PresenceController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
