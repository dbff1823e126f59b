import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { PresenceController } from './presence.controller';
import { PublicAgentsController } from './public-agents.controller';
import { TeamController } from './team.controller';

@Module({
  imports: [AuditModule, OutboxModule, RealtimeModule],
  controllers: [TeamController, PublicAgentsController, PresenceController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
