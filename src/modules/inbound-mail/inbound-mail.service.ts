import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { inOneTransaction, type SharedTransaction } from '../../database/shared-transaction';
import {
  AttachmentsService,
  MAX_ATTACHMENTS_PER_MESSAGE,
  type Uploader,
} from '../attachments/attachments.service';
import { ConversationsService } from '../conversations/conversations.service';
import { EmailRepliesService } from '../conversations/email-replies.service';
import { EmailInboxesService } from '../email-inboxes/email-inboxes.service';
import { TicketMailService } from '../email-inboxes/ticket-mail.service';
import { replyTokenOf } from '../mail/mail-tokens';
import { MailService } from '../mail/mail.service';
import {
  type InboundDoor,
  InboundMailWorkerRepository,
  isMessageIdTaken,
  MailNoLongerReceived,
} from './inbound-mail-worker.repository';
import { type ParsedInbound, parseInbound } from './inbound-parser';

/** What `deliverOnce` answers when another copy of the mail was taken first. */
const DUPLICATE = Symbol('duplicate');

/** What became of an incoming mail. */
export type InboundOutcome =
  | { status: 'processed'; outcome: 'conversation_message'; conversationId: string }
  | { status: 'processed'; outcome: 'ticket_created' | 'ticket_comment'; ticketId: string }
  | { status: 'duplicate' }
  | { status: 'rejected'; outcome: 'malformed' | 'unknown_recipient' | 'empty' | 'refused' }
  /** Stored, not yet parsed (a failure on the way): the sweep parses it again. */
  | { status: 'received' };

/**
 * Incoming mail, one pipeline for every door (HTTP, SMTP, later IMAP): the raw mail is stored
 * first, then parsed, matched and delivered. Matching (recipientsToMatch: the envelope, else at
 * most 50 header addresses): a `reply+<token>` address among the recipients first (the token names the organization and the thread, conversation or ticket);
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
    private readonly conversations: ConversationsService,
    private readonly attachments: AttachmentsService,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
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
    const recipients = recipientsToMatch(stored, parsed.headerRecipients);
    // A reply address first: it names the organization and the thread.
    for (const recipient of recipients) {
      const token = replyTokenOf(recipient, this.config.mailReplyDomain);
      if (!token) continue;
      const bound = await this.mail.resolveToken(token);
      if (bound?.purpose !== 'reply') continue;
      if (bound.ticketId) return this.deliverToTicket(id, parsed, bound, bound.ticketId);
      if (bound.conversationId) {
        return this.deliverToConversation(id, parsed, bound, bound.conversationId);
      }
    }
    // Then an inbox: In-Reply-To/References inside its organization only, else a new ticket.
    for (const recipient of recipients) {
      const inbox = await this.inboxes.forRecipient(recipient);
      if (!inbox) continue;
      const organizationId = inbox.organizationId;
      const thread = await this.mail.threadOfMessageIds(organizationId, [
        ...parsed.inReplyTo,
        ...parsed.references,
      ]);
      // A thread found by header is answered as its customer or visitor, never as an agent.
      const bound = thread && {
        organizationId,
        recipient: thread.recipient,
        userId: null,
      };
      if (bound && thread.ticketId) {
        return this.deliverToTicket(id, parsed, bound, thread.ticketId);
      }
      if (bound && thread.conversationId) {
        return this.deliverToConversation(id, parsed, bound, thread.conversationId);
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

  /**
   * Whether another mail of the organization holds this Message-ID (then this one is a
   * duplicate); else this mail now holds it, before anything is delivered.
   */
  private async duplicate(id: string, organizationId: string, parsed: ParsedInbound) {
    if (
      !parsed.messageId ||
      (await this.store.claimMessageId(id, organizationId, parsed.messageId))
    ) {
      return false;
    }
    await this.markDuplicate(id, organizationId);
    return true;
  }

  /** Records that another copy of this mail (the same Message-ID) was taken first. */
  private async markDuplicate(id: string, organizationId: string): Promise<void> {
    await this.store.markRejected(id, 'duplicate', 'duplicate', organizationId);
    this.logger.log({ msg: 'incoming mail already taken (same Message-ID)', id, organizationId });
  }

  private async openTicket(
    id: string,
    parsed: ParsedInbound,
    inbox: Parameters<TicketMailService['openFromMail']>[0],
  ): Promise<InboundOutcome> {
    const organizationId = inbox.organizationId;
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    const text = withFilesNotKept(parsed.text, this.filesNotKept(id, parsed));
    const ticketId = await this.deliverOnce(id, organizationId, parsed, async (tx) => {
      const opened = await this.ticketMail.openFromMail(
        inbox,
        {
          fromAddress: parsed.from.address,
          fromName: parsed.from.name,
          subject: parsed.subject,
          text: text || '(no text)',
          automatic: parsed.automatic,
        },
        tx,
      );
      return { value: opened, taken: { outcome: 'ticket_created', ticketId: opened } };
    });
    if (ticketId === DUPLICATE) return { status: 'duplicate' };
    this.logger.log({ msg: 'ticket opened from mail', id, organizationId, ticketId });
    return { status: 'processed', outcome: 'ticket_created', ticketId };
  }

  private async deliverToTicket(
    id: string,
    parsed: ParsedInbound,
    bound: Bound,
    ticketId: string,
  ): Promise<InboundOutcome> {
    const organizationId = bound.organizationId;
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    const text = withFilesNotKept(parsed.text, this.filesNotKept(id, parsed));
    if (!text) return this.empty(id, organizationId);
    const senderMismatch = this.senderMismatch(id, parsed, bound);
    let delivered: typeof DUPLICATE | undefined;
    try {
      delivered = await this.deliverOnce(id, organizationId, parsed, async (tx) => {
        if (bound.userId) {
          await this.ticketMail.agentAnswer(
            organizationId,
            ticketId,
            bound.userId,
            { text, senderMismatch },
            tx,
          );
        } else {
          await this.ticketMail.customerAnswer(organizationId, ticketId, text, senderMismatch, tx);
        }
        return {
          value: undefined,
          taken: { outcome: 'ticket_comment', ticketId, senderMismatch },
        };
      });
    } catch (error) {
      if (error instanceof AppError) return this.refused(id, organizationId, error);
      throw error;
    }
    if (delivered === DUPLICATE) return { status: 'duplicate' };
    this.logger.log({
      msg: 'emailed answer added to the ticket',
      id,
      organizationId,
      ticketId,
      asAgent: bound.userId !== null,
    });
    return { status: 'processed', outcome: 'ticket_comment', ticketId };
  }

  private async deliverToConversation(
    id: string,
    parsed: ParsedInbound,
    bound: Bound,
    conversationId: string,
  ): Promise<InboundOutcome> {
    const organizationId = bound.organizationId;
    if (await this.duplicate(id, organizationId, parsed)) return { status: 'duplicate' };
    if (!parsed.text && parsed.attachments.length === 0) return this.empty(id, organizationId);
    const senderMismatch = this.senderMismatch(id, parsed, bound);
    let delivered: { conversationId: string; reopened: boolean } | typeof DUPLICATE;
    try {
      const uploader: Uploader = bound.userId
        ? { type: 'agent', id: bound.userId }
        : {
            type: 'visitor',
            id: (await this.conversations.get(organizationId, conversationId)).visitorId,
          };
      const attachmentIds = await this.keepFiles(id, organizationId, parsed, uploader);
      if (!parsed.text && attachmentIds.length === 0) return this.empty(id, organizationId);
      delivered = await this.deliverOnce(id, organizationId, parsed, async (tx) => {
        const into = bound.userId
          ? await this.replies
              .agentAnswer(
                organizationId,
                conversationId,
                bound.userId,
                { body: parsed.text, attachmentIds, senderMismatch },
                tx,
              )
              .then(() => ({ conversationId, reopened: false }))
          : await this.replies.receive(
              organizationId,
              conversationId,
              parsed.text,
              { attachmentIds, senderMismatch },
              tx,
            );
        return {
          value: into,
          taken: {
            outcome: 'conversation_message',
            conversationId: into.conversationId,
            senderMismatch,
          },
        };
      });
    } catch (error) {
      if (error instanceof AppError) return this.refused(id, organizationId, error);
      throw error;
    }
    if (delivered === DUPLICATE) return { status: 'duplicate' };
    this.logger.log({
      msg: 'emailed answer added to the conversation',
      id,
      organizationId,
      conversationId: delivered.conversationId,
      reopened: delivered.reopened,
      asAgent: bound.userId !== null,
    });
    return {
      status: 'processed',
      outcome: 'conversation_message',
      conversationId: delivered.conversationId,
    };
  }

  /**
   * Delivers the mail and marks it taken in one transaction (DESIGN section 9: the Message-ID is
   * claimed in the delivering transaction). The `processed` mark holds the Message-ID under the
   * organization's unique index, so of two copies delivered at once (two doors, two instances)
   * one commits and the other's delivery rolls back as a duplicate; and a crash cannot leave a
   * delivered mail `received`, to be delivered again by the sweep. Pushes and the acknowledgement
   * follow the commit.
   */
  private async deliverOnce<T>(
    id: string,
    organizationId: string,
    parsed: ParsedInbound,
    deliver: (tx: SharedTransaction) => Promise<{
      value: T;
      taken: {
        outcome: 'ticket_created' | 'ticket_comment' | 'conversation_message';
        ticketId?: string;
        conversationId?: string;
        senderMismatch?: boolean;
      };
    }>,
  ): Promise<T | typeof DUPLICATE> {
    try {
      return await inOneTransaction(this.dataSource, async (tx) => {
        const { value, taken } = await deliver(tx);
        await this.store.markProcessed(tx.manager, id, {
          organizationId,
          messageId: parsed.messageId,
          fromAddress: parsed.from.address,
          subject: parsed.subject,
          outcome: taken.outcome,
          conversationId: taken.conversationId ?? null,
          ticketId: taken.ticketId ?? null,
          senderMismatch: taken.senderMismatch ?? false,
        });
        return value;
      });
    } catch (error) {
      if (!isMessageIdTaken(error) && !(error instanceof MailNoLongerReceived)) throw error;
      await this.markDuplicate(id, organizationId);
      return DUPLICATE;
    }
  }

  /**
   * A mail from another address than the one the reply address went to: taken, but flagged on
   * the message or comment (`sender_mismatch`) and in the log.
   */
  private senderMismatch(id: string, parsed: ParsedInbound, bound: Bound): boolean {
    const mismatch = parsed.from.address !== bound.recipient.toLowerCase();
    if (mismatch) {
      this.logger.warn({
        msg: 'emailed answer from another address than the bound recipient (sender_mismatch)',
        id,
        organizationId: bound.organizationId,
      });
    }
    return mismatch;
  }

  /**
   * Stores the mail's files as uploads of `uploader` under the attachment rules (type, size,
   * quota, at most MAX_ATTACHMENTS_PER_MESSAGE); a refused file is a log line, never a failure
   * of the mail.
   */
  private async keepFiles(
    id: string,
    organizationId: string,
    parsed: ParsedInbound,
    uploader: Uploader,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, file] of parsed.attachments.entries()) {
      if (index >= MAX_ATTACHMENTS_PER_MESSAGE) {
        this.logger.warn({
          msg: 'attachment of incoming mail refused: too many files in one mail',
          id,
          fileName: file.fileName,
        });
        continue;
      }
      try {
        ids.push((await this.attachments.storeFromMail(organizationId, uploader, file)).id);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        this.logger.warn({
          msg: 'attachment of incoming mail refused',
          id,
          fileName: file.fileName,
          contentType: file.contentType,
          size: file.content.length,
          reason: error.message,
        });
      }
    }
    return ids;
  }

  /** Tickets carry no files: each is a log line, and the text names them for the agent. */
  private filesNotKept(id: string, parsed: ParsedInbound): string[] {
    const names = parsed.attachments.map((file) => file.fileName);
    if (names.length > 0) {
      this.logger.warn({
        msg: 'attachments of incoming mail not kept: tickets carry no files',
        id,
        fileNames: names,
      });
    }
    return names;
  }

  private async empty(id: string, organizationId: string): Promise<InboundOutcome> {
    await this.store.markRejected(id, 'empty', 'rejected', organizationId);
    this.logger.warn({ msg: 'incoming mail rejected: no text once quotes were stripped', id });
    return { status: 'rejected', outcome: 'empty' };
  }

  /** The thread refused the answer (a closed conversation, an agent no longer a member). */
  private async refused(id: string, organizationId: string, error: AppError) {
    await this.store.markRejected(id, 'refused', 'rejected', organizationId);
    this.logger.warn({ msg: 'incoming mail refused by its thread', id, reason: error.message });
    return { status: 'rejected' as const, outcome: 'refused' as const };
  }
}

/** Header addresses read when a mail has no envelope recipient (each may cost a lookup). */
export const MAX_HEADER_RECIPIENTS = 50;

/**
 * The addresses a mail is matched by: its envelope recipients when the door knows them (SMTP's
 * RCPT TO, the HTTP door's `recipient`), else the first MAX_HEADER_RECIPIENTS header addresses.
 * Every address costs a lookup, and a stranger writes as many into `To` as they like (20 000 took
 * 9.4 s). An IMAP mailbox is the inbox's own: its address stands for the envelope, and the
 * headers are read too (an answer to a reply address lands in that mailbox as well).
 */
function recipientsToMatch(
  stored: { door: InboundDoor; envelope_to: string[] },
  headerRecipients: string[],
): string[] {
  const headers = headerRecipients.slice(0, MAX_HEADER_RECIPIENTS);
  if (stored.envelope_to.length === 0) return headers;
  if (stored.door !== 'imap') return stored.envelope_to;
  return [...new Set([...stored.envelope_to, ...headers])];
}

/** What a token or a thread binds an incoming mail to. */
type Bound = { organizationId: string; recipient: string; userId: string | null };

/** The text with a line naming the files that were not kept. */
function withFilesNotKept(text: string, names: string[]): string {
  if (names.length === 0) return text;
  return [text, `(Attachments not kept: ${names.join(', ')})`].filter(Boolean).join('\n\n');
}
