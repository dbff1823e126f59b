import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { MetricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfig } from '../../config/app-config';
import { type OutgoingMailJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import type { MailContent } from './mail-content';
import { MailRepository } from './mail.repository';
import { MailTransport } from './mail-transport';
import { NewRecipientBudget } from './new-recipient-budget';

/**
 * Sends the mails of the mail log, one job each. A failed attempt is written to the log and
 * thrown, so BullMQ tries again after its backoff (MAIL_SEND_ATTEMPTS, MAIL_RETRY_DELAY_MS); an
 * SMTP 5xx answer (a refused recipient) is final at once. Without SMTP_URL the mail is written to
 * the log instead and marked failed. A mail to a new address past the organization's hourly
 * budget (NewRecipientBudget) waits, still queued: its job is delayed until a place frees up.
 */
@Injectable()
@QueueWorker(QueueName.OutgoingMail, { concurrency: 64 })
export class MailSendProcessor implements JobProcessor<OutgoingMailJob> {
  private readonly logger = new Logger('mail');

  constructor(
    private readonly repository: MailRepository,
    private readonly transport: MailTransport,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsRegistry,
    private readonly budget: NewRecipientBudget,
  ) {}

  async process(job: Job<OutgoingMailJob>, token?: string): Promise<void> {
    const { organizationId, mailId } = job.data;
    const mail = await this.repository.forSending(organizationId, mailId);
    if (!mail || mail.status !== 'queued' || !mail.content_sealed) return;
    const heldUntil = await this.budget.waitUntil(organizationId, mail.kind, mail.recipient);
    if (heldUntil) {
      await this.repository.hold(organizationId, mailId, heldUntil, 'new_recipient_budget');
      this.logger.log({
        msg: 'mail waits: the hourly budget of new recipients is spent',
        mailId,
        kind: mail.kind,
        until: heldUntil.toISOString(),
      });
      await job.moveToDelayed(heldUntil.getTime(), token);
      throw new DelayedError();
    }
    const content = JSON.parse(this.secrets.open(mail.content_sealed)) as MailContent;
    if (!this.transport.configured) {
      this.logUnsent(mail, content);
      await this.repository.recordFailure(organizationId, mailId, UNSENT, true);
      return;
    }
    try {
      await this.transport.send({
        from: content.from,
        to: content.toName ? { name: content.toName, address: mail.recipient } : mail.recipient,
        subject: mail.subject,
        text: content.text,
        html: content.html,
        replyTo: content.replyTo,
        messageId: mail.message_id,
        inReplyTo: content.inReplyTo,
        references: content.references,
        headers: content.headers,
        icalEvent: content.calendar && {
          method: content.calendar.method,
          filename: 'invite.ics',
          content: content.calendar.content,
        },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { responseCode?: number }).responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      const final = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await this.repository.recordFailure(organizationId, mailId, message, final);
      this.metrics.mailed(mail.kind, 'failed');
      this.logger.warn({
        msg: final ? 'mail failed for good' : 'mail attempt failed, will retry',
        mailId,
        kind: mail.kind,
        attempt: job.attemptsMade + 1,
        error: message,
      });
      throw permanent ? new UnrecoverableError(message) : error;
    }
    await this.repository.markSent(organizationId, mailId);
    this.metrics.mailed(mail.kind, 'sent');
  }

  /**
   * A local setup reads its mails (login codes included) in the log; in production a log line
   * must not hold a credential, so only the kind, recipient and subject are written.
   */
  private logUnsent(
    mail: { id: string; kind: string; recipient: string; subject: string },
    content: MailContent,
  ) {
    const base = { mailId: mail.id, kind: mail.kind, to: mail.recipient, subject: mail.subject };
    if (this.config.env.NODE_ENV === 'production') {
      this.logger.warn({ msg: 'mail not sent: SMTP_URL is unset', ...base });
    } else {
      this.logger.log({ msg: 'mail not sent (SMTP_URL unset)', ...base, text: content.text });
    }
  }
}

const UNSENT = 'SMTP_URL is unset: the mail was logged, not sent';
