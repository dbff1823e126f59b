import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { MailService } from '../mail/mail.service';
import { OutboxService } from '../outbox/outbox.service';
import { TicketChangesService } from '../tickets/ticket-changes.service';
import { TicketsService } from '../tickets/tickets.service';
import type { EmailInboxRow } from './email-inboxes.repository';

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

  /** A ticket from a new mail to `inbox`, acknowledged to the sender when the inbox says so. */
  async openFromMail(
    inbox: EmailInboxRow,
    mail: { fromAddress: string; fromName: string | null; subject: string | null; text: string },
  ): Promise<string> {
    const organizationId = inbox.organization_id;
    const subject = (mail.subject ?? '').trim().slice(0, 255) || '(no subject)';
    const ticket = await this.tickets.createFromEmail(organizationId, {
      siteId: inbox.site_id,
      subject,
      description: mail.text,
      customerName: mail.fromName ?? undefined,
      customerEmail: mail.fromAddress,
    });
    if (inbox.acknowledge) {
      await this.mail.send(organizationId, {
        template: {
          kind: 'ticket_acknowledgement',
          name: mail.fromName,
          ticketNumber: ticket.ticket_number,
          subject,
        },
        to: mail.fromAddress,
        toName: mail.fromName,
        siteId: inbox.site_id,
        ticketId: ticket.id,
        replyable: {},
      });
    }
    return ticket.id;
  }

  /** The customer's answer by mail: a comment by the customer. */
  async customerAnswer(organizationId: string, ticketId: string, text: string): Promise<void> {
    await this.changes.addCustomerComment(organizationId, ticketId, text);
  }

  private async mailComment(organizationId: string, ticketId: string, commentId: string) {
    const { ticket, comments } = await this.tickets.get(organizationId, ticketId);
    const comment = comments.find((row) => row.id === commentId);
    if (
      !comment ||
      comment.is_internal ||
      comment.author_type !== 'agent' ||
      ticket.source !== 'email' ||
      !ticket.customer_email
    ) {
      return;
    }
    const author =
      (comment.author_id &&
        (await this.agents.findMember(organizationId, comment.author_id))?.name) ||
      'Support';
    await this.mail.send(organizationId, {
      template: {
        kind: 'ticket_reply',
        name: ticket.customer_name,
        ticketNumber: ticket.ticket_number,
        subject: ticket.subject,
        messages: [{ author, text: comment.body }],
      },
      to: ticket.customer_email,
      toName: ticket.customer_name,
      siteId: ticket.site_id,
      ticketId: ticket.id,
      replyable: {},
    });
    this.logger.log({ msg: 'ticket comment mailed', ticketId, commentId });
  }
}
