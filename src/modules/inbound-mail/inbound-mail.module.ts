import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { EmailInboxesModule } from '../email-inboxes/email-inboxes.module';
import { MailModule } from '../mail/mail.module';
import { InboundEmailController } from './inbound-email.controller';
import { InboundMailWorkerRepository } from './inbound-mail-worker.repository';
import { InboundMailService } from './inbound-mail.service';
import { InboundMailSweep } from './inbound-mail.sweep';
import { InboundSmtpListener } from './inbound-smtp.listener';

/** Incoming mail: the doors (HTTP, SMTP), the store, one parser, matching and delivery. */
@Module({
  imports: [ConversationsModule, EmailInboxesModule, MailModule],
  controllers: [InboundEmailController],
  providers: [
    InboundMailWorkerRepository,
    InboundMailService,
    InboundSmtpListener,
    InboundMailSweep,
  ],
  exports: [InboundMailService],
})
export class InboundMailModule {}
