import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { MailService } from '../mail/mail.service';
import { ConversationMailRepository } from './conversation-mail.repository';

/** A visitor's choice about conversation mails. */
@Injectable()
export class ConversationMailService {
  private readonly logger = new Logger('conversation-mail');

  constructor(
    private readonly repository: ConversationMailRepository,
    private readonly mail: MailService,
  ) {}

  /** One-click unsubscribe: an unknown token is a 404; the same token twice is fine. */
  async unsubscribe(token: string): Promise<void> {
    const bound = await this.mail.resolveToken(token);
    if (!bound || bound.purpose !== 'unsubscribe' || !bound.visitorId) throw AppError.notFound();
    await this.repository.setMails(bound.organizationId, bound.visitorId, false);
    this.logger.log({ msg: 'conversation mails turned off', visitorId: bound.visitorId });
  }

  /** The visitor gave its address again (the widget's email prompt): conversation mails are on. */
  resubscribe(organizationId: string, visitorId: string): Promise<void> {
    return this.repository.setMails(organizationId, visitorId, true);
  }

  mailsOff(organizationId: string, visitorId: string): Promise<boolean> {
    return this.repository.mailsOff(organizationId, visitorId);
  }
}
