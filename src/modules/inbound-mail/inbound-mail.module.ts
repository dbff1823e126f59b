import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { EmailInboxesModule } from '../email-inboxes/email-inboxes.module';
import { MailModule } from '../mail/mail.module';
import { ImapPollers } from './imap-pollers';
import { InboundEmailController } from './inbound-email.controller';
import { InboundMailWorkerRepository } from './inbound-mail-worker.repository';
import { InboundMailService } from './inbound-mail.service';
import { InboundMailSweep } from './inbound-mail.sweep';
import { InboundSmtpListener } from './inbound-smtp.listener';
import { MailRetentionProcessor } from './mail-retention.processor';

/** Incoming mail: the doors (HTTP, SMTP, IMAP), the store, one parser, matching and delivery. */
@Module({
  imports: [AttachmentsModule, ConversationsModule, EmailInboxesModule, MailModule],
  controllers: [InboundEmailController],
  providers: [
    InboundMailWorkerRepository,
    InboundMailService,
    InboundSmtpListener,
    InboundMailSweep,
    ImapPollers,
    MailRetentionProcessor,
  ],
  exports: [InboundMailService],
})
export class InboundMailModule {}
