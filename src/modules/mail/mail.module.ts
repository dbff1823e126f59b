import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { SitesModule } from '../sites/sites.module';
import { MailLogController } from './mail-log.controller';
import { MailRequeueSweep } from './mail-requeue.sweep';
import { MailSendProcessor } from './mail-send.processor';
import { MailTransport } from './mail-transport';
import { MailRepository } from './mail.repository';
import { MailService } from './mail.service';
import { NewRecipientBudget } from './new-recipient-budget';

/**
 * Outgoing mail: templates, the mail log, the queue that sends with retries. Features send mail
 * through MailService and nothing else.
 */
@Module({
  imports: [AgentsModule, SitesModule],
  controllers: [MailLogController],
  providers: [
    MailRepository,
    MailService,
    MailTransport,
    MailSendProcessor,
    MailRequeueSweep,
    NewRecipientBudget,
  ],
  exports: [MailService],
})
export class MailModule {}
