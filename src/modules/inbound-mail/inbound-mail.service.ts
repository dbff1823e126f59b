import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { EmailRepliesService } from '../conversations/email-replies.service';
import { EmailInboxesService } from '../email-inboxes/email-inboxes.service';
import { TicketMailService } from '../email-inboxes/ticket-mail.service';
import { replyTokenOf } from '../mail/mail-tokens';
import { MailService } from '../mail/mail.service';
import { type InboundDoor, InboundMailWorkerRepository } from './inbound-mail-worker.repository';
import { type ParsedInbound, parseInbound } from './inbound-parser';

/** What became of an incoming mail. */
export type InboundOutcome =
  | { status: 'processed'; outcome: 'conversation_message'; conversationId: string }
  | { status: 'processed'; outcome: 'ticket_created' | 'ticket_comment'; ticketId: string }
  | { status: 'duplicate' }
  | { status: 'rejected'; outcome: 'malformed' | 'unknown_recipient' | 'empty' }
  /** Stored, not yet parsed (a failure on the way): the sweep parses it again. */
  | { status: 'received' };

/**
 * Incoming mail, one pipeline for every door (HTTP, SMTP, later IMAP): the raw mail is stored
 * first, then parsed, matched and delivered. Matching: a `reply+<token>` address among the
 * recipients first (the token names the organization and the thread, conversation or ticket);
 * then an inbox's forwarding or support address, which names the organization, inside which
 * In-Reply-To/References find the thread, else the mail opens a ticket. Headers are never used
 * to find an organization, so a forged one cannot reach another organization's thread.
 */
@Injectable()
export class InboundMailService {
  private readonly logger = new Logger('inbound-mail');

  constructor(
    private readonly store: InboundMailWorkerRepository,
    private readonly mail: MailService,
    private readonly replies: EmailRepliesService,
    private readonly inboxes: EmailInboxesService,
    private readonly ticketMail: TicketMailService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Whether a door should take mail for `address` (SMTP RCPT TO): a live reply token of ours, an
   * inbox's forwarding address or an inbox's support address.
   */
  async acceptsRecipient(address: string): Promise<boolean> {
    const token = replyTokenOf(address, this.config.mailReplyDomain);
    if (token) return (await this.mail.resolveToken(token))?.purpose === 'reply';
    return (await this.inboxes.forRecipient(address)) !== undefined;
  }

  /** Stores the mail, then parses and delivers it; a failure after the store is retried later. */
  async accept(
    raw: Buffer,
    meta: {
      door: InboundDoor;
      clientAddress?: string | null;
      envelopeFrom?: string | null;
      envelopeTo?: string[];
    },
  ): Promise<{ id: string } & InboundOutcome> {
    const id = await this.store.insert({
      door: meta.door,
      clientAddress: meta.clientAddress ?? null,
      envelopeFrom: meta.envelopeFrom ?? null,
      envelopeTo: (meta.envelopeTo ?? []).map((address) => address.toLowerCase()),
      raw,
    });
    return { id, ...(await this.processSafely(id)) };
  }

  /** Parses a stored mail again (the sweep); never throws. */
  async processSafely(id: string): Promise<InboundOutcome> {
    try {
      return await this.process(id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.store.recordError(id, message).catch(() => undefined);
      this.logger.error({
        msg: 'incoming mail stored but not processed; will retry',
        id,
        error: message,
      });
      return { status: 'received' };
    }
  }

  private async process(id: string): Promise<InboundOutcome> {
    const stored = await this.store.find(id);
    if (!stored || stored.status !== 'received') return { status: 'duplicate' };
    let parsed: ParsedInbound | undefined;
    try {
      parsed = await parseInbound(stored.raw);
    } catch {
      parsed = undefined;
    }
    if (!parsed) {
      await this.store.markRejected(id, 'malformed');
      this.logger.warn({
        msg: 'incoming mail rejected: malformed (no sender address)',
        id,
        door: stored.door,
      });
      return { status: 'rejected', outcome: 'malformed' };
    }
    const recipients = [...new Set([...stored.envelope_to, ...parsed.headerRecipients])];
    // A reply address first: it names the organization and the thread.
    for (const recipient of recipients) {
      const token = replyTokenOf(recipient, this.config.mailReplyDomain);
      if (!token) continue;
      const bound = await this.mail.resolveToken(token);
      if (bound?.purpose !== 'reply') continue;
      if (bound.ticket_id)
        return this.deliverToTicket(id, parsed, bound.organization_id, bound.ticket_id);
      if (bound.conversation_id) {
        return this.deliverToConversation(id, parsed, {
          organization_id: bound.organization_id,
          conversation_id: bound.conversation_id,
          recipient: bound.recipient,
        });
      }
    }
    // Then an inbox: In-Reply-To/References inside its organization only, else a new ticket.
    for (const recipient of recipients) {
      const inbox = await this.inboxes.forRecipient(recipient);
      if (!inbox) continue;
      const organizationId = inbox.organization_id;
      const thread = await this.mail.threadOfMessageIds(organizationId, [
        ...parsed.inReplyTo,
        ...parsed.references,
      ]);
      if (thread?.ticket_id)
        return this.deliverToTicket(id, parsed, organizationId, thread.ticket_id);
      if (thread?.conversation_id) {
        return this.deliverToConversation(id, parsed, {
          organization_id: organizationId,
          conversation_id: thread.conversation_id,
          recipient: thread.recipient,
        });
      }
      return this.openTicket(id, parsed, inbox);
    }
    await this.store.markRejected(id, 'unknown_recipient');
    this.logger.warn({
      msg: 'incoming mail rejected: no live reply address or inbox among its recipients',
      id,
      door: stored.door,
      recipients,
      inReplyTo: parsed.inReplyTo,
    });
    return { status: 'rejected', outcome: 'unknown_recipient' };
  }

  /** Whether the organization took this Message-ID before (then the mail is a duplicate). */
  private async duplicate(id: string, organizationId: string, parsed: ParsedInbound) {
    if (!parsed.messageId || !(await this.store.alreadyTaken(organizationId, parsed.messageId))) {
      return false;
    }
    await this.store.markRejected(id, 'duplicate', 'duplicate', organizationId);
    this.logger.log({ msg: 'incoming mail already taken (same Message-ID)', id, organizationId });
    return true;
  }

  private async openTicket(
    id: string,
    parsed: ParsedInbound,
    inbox: Parameters<TicketMailService['openFromMail']>[0],
  ): Promise<InboundOutcome> {
    const organizationId = inbox.organization_id;
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    const ticketId = await this.ticketMail.openFromMail(inbox, {
      fromAddress: parsed.from.address,
      fromName: parsed.from.name,
      subject: parsed.subject,
      text: parsed.text || '(no text)',
      automatic: parsed.automatic,
    });
    const status = await this.store.markProcessed(id, {
      organizationId,
      messageId: parsed.messageId,
      fromAddress: parsed.from.address,
      subject: parsed.subject,
      outcome: 'ticket_created',
      conversationId: null,
      ticketId,
      senderMismatch: false,
    });
    this.logger.log({ msg: 'ticket opened from mail', id, organizationId, ticketId });
    return status === 'duplicate'
      ? { status: 'duplicate' }
      : { status: 'processed', outcome: 'ticket_created', ticketId };
  }

  private async deliverToTicket(
    id: string,
    parsed: ParsedInbound,
    organizationId: string,
    ticketId: string,
  ): Promise<InboundOutcome> {
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    if (!parsed.text) {
      await this.store.markRejected(id, 'empty', 'rejected', organizationId);
      this.logger.warn({ msg: 'incoming mail rejected: no text once quotes were stripped', id });
      return { status: 'rejected', outcome: 'empty' };
    }
    await this.ticketMail.customerAnswer(organizationId, ticketId, parsed.text);
    const status = await this.store.markProcessed(id, {
      organizationId,
      messageId: parsed.messageId,
      fromAddress: parsed.from.address,
      subject: parsed.subject,
      outcome: 'ticket_comment',
      conversationId: null,
      ticketId,
      senderMismatch: false,
    });
    this.logger.log({ msg: 'emailed answer added to the ticket', id, organizationId, ticketId });
    return status === 'duplicate'
      ? { status: 'duplicate' }
      : { status: 'processed', outcome: 'ticket_comment', ticketId };
  }

  private async deliverToConversation(
    id: string,
    parsed: ParsedInbound,
    bound: { organization_id: string; conversation_id: string; recipient: string },
  ): Promise<InboundOutcome> {
    const organizationId = bound.organization_id;
    const conversationId = bound.conversation_id;
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    if (!parsed.text) {
      await this.store.markRejected(id, 'empty', 'rejected', organizationId);
      this.logger.warn({ msg: 'incoming mail rejected: no text once quotes were stripped', id });
      return { status: 'rejected', outcome: 'empty' };
    }
    const senderMismatch = parsed.from.address !== bound.recipient.toLowerCase();
    const delivered = await this.replies.receive(organizationId, conversationId, parsed.text);
    const status = await this.store.markProcessed(id, {
      organizationId,
      messageId: parsed.messageId,
      fromAddress: parsed.from.address,
      subject: parsed.subject,
      outcome: 'conversation_message',
      conversationId: delivered.conversationId,
      ticketId: null,
      senderMismatch,
    });
    if (senderMismatch) {
      this.logger.warn({
        msg: 'emailed answer from another address than the bound recipient (sender_mismatch)',
        id,
        organizationId,
      });
    }
    this.logger.log({
      msg: 'emailed answer added to the conversation',
      id,
      organizationId,
      conversationId: delivered.conversationId,
      reopened: delivered.reopened,
    });
    return status === 'duplicate'
      ? { status: 'duplicate' }
      : {
          status: 'processed',
          outcome: 'conversation_message',
          conversationId: delivered.conversationId,
        };
  }
}
