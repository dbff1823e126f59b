import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AgentTicketsController } from './agent-tickets.controller';
import { PublicTicketsController } from './public-tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketChangesService } from './ticket-changes.service';
import { TicketPushes } from './ticket-pushes';
import { CustomerHistoryRepository } from './customer-history.repository';
import { TicketsService } from './tickets.service';
import { WidgetTicketsController } from './widget-tickets.controller';

@Module({
  imports: [
    AgentsModule,
    ConversationsModule,
    IdempotencyModule,
    OrganizationsModule,
    OutboxModule,
    RealtimeModule,
    VisitorsModule,
  ],
  controllers: [PublicTicketsController, AgentTicketsController, WidgetTicketsController],
  providers: [
    TicketsRepository,
    CustomerHistoryRepository,
    TicketsService,
    TicketChangesService,
    TicketPushes,
  ],
  exports: [TicketsService, TicketChangesService],
})
export class TicketsModule {}
