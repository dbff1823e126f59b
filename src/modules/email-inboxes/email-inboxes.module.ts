import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { MailModule } from '../mail/mail.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { TicketsModule } from '../tickets/tickets.module';
import { EmailInboxesController } from './email-inboxes.controller';
import { EmailInboxesRepository } from './email-inboxes.repository';
import { EmailInboxesService } from './email-inboxes.service';
import { TicketMailService } from './ticket-mail.service';

/** Email inboxes (a channel) and the tickets they carry by mail. */
@Module({
  imports: [AgentsModule, MailModule, OutboxModule, SitesModule, TicketsModule],
  controllers: [EmailInboxesController],
  providers: [EmailInboxesRepository, EmailInboxesService, TicketMailService],
  exports: [EmailInboxesService, TicketMailService],
})
export class EmailInboxesModule {}
