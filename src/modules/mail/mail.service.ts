import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { type OutgoingMailJob, QueueName } from '../../queue/queue-names';
import { AgentsService } from '../agents/agents.service';
import { SitesService } from '../sites/sites.service';
import { withDefaults } from '../sites/widget-settings';
import type { MailCalendar, MailContent } from './mail-content';
import type { MailBrand } from './mail-layout';
import { type MailTemplate, renderTemplate } from './mail-templates';
import { type MailLogRow, MailRepository } from './mail.repository';
import { type MailTokenRecord, toMailTokenRecord } from './mail-token-record';
import { hashMailToken, MAIL_TOKEN, newMailToken } from './mail-tokens';

export type { MailTokenRecord };

/** The thread a mail we sent belongs to, and whom it went to (issue 32, point 7: camelCase). */
export interface MailThread {
  conversationId: string | null;
  ticketId: string | null;
  recipient: string;
}

/** One mail to send: what it says (a template), to whom, and what it belongs to. */
export interface MailRequest {
  template: MailTemplate;
  to: string;
  toName?: string | null;
  /** The site whose name, colour and sender name the mail carries (else the organization's first). */
  siteId?: string | null;
  /** The recipient's language (a visitor's); unknown or unset: English. */
  language?: string | null;
  /**
   * Answerable by mail: `Reply-To: reply+<token>@MAIL_REPLY_DOMAIN`, a new token bound to the
   * conversation or ticket and the recipient (and the visitor, or the agent, when one).
   */
  replyable?: { visitorId?: string | null; userId?: string | null };
  /** The one-click unsubscribe URL (List-Unsubscribe, RFC 8058). */
  listUnsubscribe?: string;
  headers?: Record<string, string>;
  calendar?: MailCalendar;
  /** The conversation or ticket the mail is about: it is threaded with the earlier ones. */
  conversationId?: string | null;
  ticketId?: string | null;
}

const FALLBACK_BRAND: MailBrand = { name: 'Support', color: '#2563eb' };

/**
 * Outgoing mail (DESIGN section 9): every mail is rendered, written to the mail log with its
 * sealed content and queued; MailSendProcessor sends it with retries. The log row is written
 * before the job, and MailRequeueSweep queues again a mail whose job was lost.
 */
@Injectable()
export class MailService {
  constructor(
    private readonly repository: MailRepository,
    private readonly sites: SitesService,
    private readonly agents: AgentsService,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    @InjectQueue(QueueName.OutgoingMail) private readonly queue: Queue<OutgoingMailJob>,
  ) {}

  /** Renders, logs and queues a mail; answers its log id and Message-ID. */
  async send(
    organizationId: string,
    request: MailRequest,
  ): Promise<{ id: string; messageId: string }> {
    const { brand, siteId } = await this.brandOf(organizationId, request.siteId ?? null);
    const rendered = renderTemplate(request.template, brand, request.language ?? null);
    const messageId = `<${randomUUID()}@${this.config.mailReplyDomain}>`;
    const thread = { conversationId: request.conversationId, ticketId: request.ticketId };
    const threaded = Boolean(thread.conversationId ?? thread.ticketId);
    // Earlier mails of the same conversation or ticket to the same person: one thread in their
    // mail client (In-Reply-To the last, References the chain).
    const references = threaded
      ? await this.repository.threadMessageIds(organizationId, thread, request.to)
      : [];
    const headers: Record<string, string> = { ...request.headers };
    if (request.listUnsubscribe) {
      headers['List-Unsubscribe'] = `<${request.listUnsubscribe}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    const content: MailContent = {
      from: { name: brand.name, address: this.config.env.MAIL_FROM },
      toName: request.toName ?? null,
      text: rendered.text,
      html: rendered.html,
      replyTo: request.replyable
        ? await this.replyAddress(organizationId, {
            ...thread,
            visitorId: request.replyable.visitorId ?? null,
            userId: request.replyable.userId ?? null,
            recipient: request.to,
          })
        : undefined,
      inReplyTo: references.at(-1),
      references: references.length > 0 ? references : undefined,
      headers: Object.keys(headers).length > 0 ? headers : undefined,
      calendar: request.calendar,
    };
    const id = await this.repository.insert(organizationId, {
      siteId,
      kind: request.template.kind,
      recipient: request.to,
      subject: rendered.subject,
      messageId,
      conversationId: request.conversationId ?? null,
      ticketId: request.ticketId ?? null,
      contentSealed: this.secrets.seal(JSON.stringify(content)),
    });
    await this.enqueue(organizationId, id);
    return { id, messageId };
  }

  /** A new `reply+<token>@MAIL_REPLY_DOMAIN` address bound to the thread and recipient. */
  private async replyAddress(
    organizationId: string,
    binding: {
      conversationId?: string | null;
      ticketId?: string | null;
      visitorId: string | null;
      userId: string | null;
      recipient: string;
    },
  ): Promise<string> {
    const token = newMailToken();
    await this.repository.insertToken(organizationId, {
      hash: hashMailToken(token),
      purpose: 'reply',
      conversationId: binding.conversationId ?? null,
      ticketId: binding.ticketId ?? null,
      visitorId: binding.visitorId,
      userId: binding.userId,
      recipient: binding.recipient,
    });
    return `reply+${token}@${this.config.mailReplyDomain}`;
  }

  /** A one-click unsubscribe link for the visitor's conversation mails to `recipient`. */
  async unsubscribeUrl(
    organizationId: string,
    visitorId: string,
    recipient: string,
  ): Promise<string> {
    const token = newMailToken();
    await this.repository.insertToken(organizationId, {
      hash: hashMailToken(token),
      purpose: 'unsubscribe',
      conversationId: null,
      ticketId: null,
      visitorId,
      recipient,
    });
    return `${this.config.publicUrl}/api/email/unsubscribe/${token}`;
  }

  /** What a reply or unsubscribe token is bound to; undefined when it names nothing. */
  async resolveToken(token: string): Promise<MailTokenRecord | undefined> {
    if (!MAIL_TOKEN.test(token.toLowerCase())) return undefined;
    const bound = await this.repository.findToken(hashMailToken(token));
    return bound && toMailTokenRecord(bound);
  }

  /** The conversation or ticket of an incoming mail's In-Reply-To/References, in one organization. */
  async threadOfMessageIds(
    organizationId: string,
    messageIds: string[],
  ): Promise<MailThread | undefined> {
    const thread = await this.repository.threadOfMessageIds(organizationId, messageIds);
    return (
      thread && {
        conversationId: thread.conversation_id,
        ticketId: thread.ticket_id,
        recipient: thread.recipient,
      }
    );
  }

  /** Queues the send of a logged mail; a job already waiting for it is left alone (jobId). */
  async enqueue(organizationId: string, mailId: string): Promise<void> {
    await this.queue.add(
      'send',
      { organizationId, mailId },
      {
        jobId: `mail-${mailId}`,
        attempts: this.config.env.MAIL_SEND_ATTEMPTS,
        backoff: { type: 'exponential', delay: this.config.env.MAIL_RETRY_DELAY_MS },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** A test mail to the agent asking for it: shows in the mail log whether SMTP works. */
  async sendTest(organizationId: string, userId: string, siteId: string | null) {
    const agent = await this.agents.get(organizationId, userId);
    if (siteId !== null) await this.sites.get(organizationId, siteId);
    return this.send(organizationId, {
      template: { kind: 'test', name: agent.name },
      to: agent.email,
      toName: agent.name,
      siteId,
    });
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.repository.page(organizationId, page);
  }

  async entry(organizationId: string, id: string): Promise<MailLogRow> {
    const row = await this.repository.forSending(organizationId, id);
    if (!row) throw AppError.notFound();
    const { content_sealed: _sealed, ...entry } = row;
    return entry;
  }

  /** Deletes mail-log rows past MAIL_RETENTION_DAYS (the mail retention job); answers how many. */
  purgeLog(): Promise<number> {
    return this.repository.deleteOlderThan(this.config.env.MAIL_RETENTION_DAYS);
  }

  private async brandOf(
    organizationId: string,
    siteId: string | null,
  ): Promise<{ brand: MailBrand; siteId: string | null }> {
    const site = siteId
      ? await this.sites.findActive(organizationId, siteId)
      : (await this.sites.page(organizationId, { oldestFirst: true }, { perPage: 1, offset: 0 }))
          .rows[0];
    if (!site) return { brand: FALLBACK_BRAND, siteId: null };
    const color = withDefaults(site.widgetSettings).appearance.color;
    return { brand: { name: site.name, color }, siteId: site.id };
  }
}
