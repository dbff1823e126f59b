import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { AppConfig } from '../../config/app-config';
import { afterCommit, type SharedTransaction } from '../../database/shared-transaction';
import { AgentsService } from '../agents/agents.service';
import { MailService } from '../mail/mail.service';
import { OutboxService } from '../outbox/outbox.service';
import { TicketChangesService } from '../tickets/ticket-changes.service';
import { TicketsService } from '../tickets/tickets.service';
import type { EmailInboxRecord } from './email-inbox-record';

/** Acknowledgements one sender address may get per organization and hour. */
const ACKS_PER_SENDER_HOUR = 5;

/**
 * Tickets by email (DESIGN section 9): a new mail to an inbox opens a ticket (`email`) and gets
 * an acknowledgement; the customer's answers become comments by the customer; an agent's
 * non-internal comment on an email ticket is mailed to the customer (internal ones never). Every
 * mail about a ticket is answerable (`reply+<token>`) and threaded.
 */
@Injectable()
export class TicketMailService implements OnModuleInit {
  private readonly logger = new Logger('ticket-mail');

  constructor(
    private readonly tickets: TicketsService,
    private readonly changes: TicketChangesService,
    private readonly agents: AgentsService,
    private readonly mail: MailService,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('ticket.comment_added', 'TicketMailService', async (event) => {
      await this.mailComment(
        String(event.organizationId),
        String(event.payload.ticket_id),
        String(event.payload.comment.id),
      );
    });
  }

  /**
   * A ticket from a new mail to `inbox`, acknowledged to the sender when the inbox says so. In
   * `tx` (the incoming mail is marked taken in it); the acknowledgement goes once it commits.
   */
  async openFromMail(
    inbox: EmailInboxRecord,
    mail: {
      fromAddress: string;
      fromName: string | null;
      subject: string | null;
      text: string;
      automatic: boolean;
    },
    tx?: SharedTransaction,
  ): Promise<string> {
    const organizationId = inbox.organizationId;
    const subject = (mail.subject ?? '').trim().slice(0, 255) || '(no subject)';
    const ticket = await this.tickets.createFromEmail(
      organizationId,
      {
        siteId: inbox.siteId,
        subject,
        description: mail.text,
        customerName: mail.fromName ?? undefined,
        customerEmail: mail.fromAddress,
      },
      tx,
    );
    await afterCommit(tx, async () => {
      if (!inbox.acknowledge || !(await this.mayAcknowledge(inbox, mail))) return;
      await this.mail.send(organizationId, {
        // Nothing the sender wrote (display name, subject) goes back: the `From` may be forged.
        template: { kind: 'ticket_acknowledgement', ticketNumber: ticket.ticketNumber },
        to: mail.fromAddress,
        siteId: inbox.siteId,
        ticketId: ticket.id,
        replyable: {},
        // RFC 3834: an automatic answer, which other autoresponders must not answer.
        headers: { 'Auto-Submitted': 'auto-replied' },
      });
    });
    return ticket.id;
  }

  /**
   * No acknowledgement to a machine (a loop between two autoresponders), to our own sender, nor
   * past ACKS_PER_SENDER_HOUR to one address (a flood of forged senders must not make the service
   * a source of backscatter), nor past MAIL_ACKS_PER_HOUR_PER_INBOX and _PER_ORG (a flood that
   * forges a new sender each time). The ticket is opened in every case.
   */
  private async mayAcknowledge(
    inbox: EmailInboxRecord,
    mail: { fromAddress: string; automatic: boolean },
  ): Promise<boolean> {
    const organizationId = inbox.organizationId;
    if (mail.automatic || mail.fromAddress === this.config.env.MAIL_FROM.toLowerCase()) {
      this.logger.log({ msg: 'no acknowledgement: automatic mail or our own sender' });
      return false;
    }
    const hit = await this.limits.hit(
      `ticket-ack:${organizationId}:${mail.fromAddress}`,
      ACKS_PER_SENDER_HOUR,
      60 * 60 * 1000,
    );
    if (!hit.allowed) {
      this.logger.warn({ msg: 'no acknowledgement: sender past its hourly limit' });
      return false;
    }
    const env = this.config.env;
    for (const [key, limit] of [
      [`ticket-ack-inbox:${organizationId}:${inbox.id}`, env.MAIL_ACKS_PER_HOUR_PER_INBOX],
      [`ticket-ack-org:${organizationId}`, env.MAIL_ACKS_PER_HOUR_PER_ORG],
    ] as const) {
      if (!(await this.limits.hit(key, limit, 60 * 60 * 1000)).allowed) {
        this.logger.warn({ msg: 'no acknowledgement: inbox or organization past its hourly cap' });
        return false;
      }
    }
    return true;
  }

  /** The customer's answer by mail: a comment by the customer. */
  async customerAnswer(
    organizationId: string,
    ticketId: string,
    text: string,
    senderMismatch = false,
    tx?: SharedTransaction,
  ): Promise<void> {
    await this.changes.addCustomerComment(organizationId, ticketId, text, senderMismatch, tx);
  }

  /**
   * An agent's answer by mail to a notification about the ticket: a public comment by that agent
   * (mailed to the customer like one written in the desk). An agent no longer in the team is a 422.
   */
  async agentAnswer(
    organizationId: string,
    ticketId: string,
    userId: string,
    answer: { text: string; senderMismatch: boolean },
    tx?: SharedTransaction,
  ): Promise<void> {
    if (!(await this.agents.findMember(organizationId, userId))) {
      throw AppError.invalid(
        'agent',
        'The agent is no longer a member of the organization.',
        'inbox_agent_gone',
      );
    }
    await this.changes.addComment(
      { organizationId, userId },
      ticketId,
      { body: answer.text, senderMismatch: answer.senderMismatch },
      tx,
    );
  }

  private async mailComment(organizationId: string, ticketId: string, commentId: string) {
    const { ticket, comments } = await this.tickets.get(organizationId, ticketId);
    const comment = comments.find((row) => row.id === commentId);
    if (
      !comment ||
      comment.isInternal ||
      comment.authorType !== 'agent' ||
      ticket.source !== 'email' ||
      !ticket.customerEmail
    ) {
      return;
    }
    const author =
      (comment.authorId &&
        (await this.agents.findMember(organizationId, comment.authorId))?.name) ||
      'Support';
    await this.mail.send(organizationId, {
      template: {
        kind: 'ticket_reply',
        name: ticket.customerName,
        ticketNumber: ticket.ticketNumber,
        subject: ticket.subject,
        messages: [{ author, text: comment.body }],
      },
      to: ticket.customerEmail,
      toName: ticket.customerName,
      siteId: ticket.siteId,
      ticketId: ticket.id,
      replyable: {},
    });
    this.logger.log({ msg: 'ticket comment mailed', ticketId, commentId });
  }
}
