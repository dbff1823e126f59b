import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AgentsModule } from '../agents/agents.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AgentTicketsController } from './agent-tickets.controller';
import { PublicTicketsController } from './public-tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketChangesService } from './ticket-changes.service';
import { TicketsService } from './tickets.service';

@Module({
  imports: [AgentsModule, IdempotencyModule, OrganizationsModule, OutboxModule, VisitorsModule],
  controllers: [PublicTicketsController, AgentTicketsController],
  providers: [TicketsRepository, TicketsService, TicketChangesService],
  exports: [TicketsService, TicketChangesService],
})
export class TicketsModule {}
