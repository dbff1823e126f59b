import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { AgentsService } from '../agents/agents.service';
import { ConversationMailService } from '../conversation-mail/conversation-mail.service';
import { ConversationsService } from '../conversations/conversations.service';
import { MailService } from '../mail/mail.service';
import { MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { SitesService } from '../sites/sites.service';
import { withDefaults } from '../sites/widget-settings';
import { VisitorsService } from '../visitors/visitors.service';

/** At most this many transcripts an hour per visitor (DESIGN section 9). */
export const TRANSCRIPTS_PER_VISITOR_HOUR = 3;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Transcripts (DESIGN section 9): the visitor asks for its conversation by email from the
 * widget, and a site may send one whenever a chat is closed (`widget_settings.transcripts.on_close`).
 */
@Injectable()
export class TranscriptsService implements OnModuleInit {
  private readonly logger = new Logger('transcripts');

  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly agents: AgentsService,
    private readonly sites: SitesService,
    private readonly visitors: VisitorsService,
    private readonly mail: MailService,
    private readonly conversationMail: ConversationMailService,
    private readonly outbox: OutboxService,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('chat.closed', 'TranscriptsService', async (event) => {
      await this.onClose(String(event.organizationId), String(event.payload.conversation_id));
    });
  }

  /** The visitor's request: to `email`, else to the address it gave before (422 when none). */
  async request(
    visitor: VisitorPrincipal,
    input: { email?: string; conversationId?: string },
  ): Promise<{ conversation_id: number; email: string }> {
    const { organizationId, visitorId } = visitor;
    const startedId = await this.conversations.startedForVisitor(
      organizationId,
      visitorId,
      input.conversationId,
    );
    if (!startedId) {
      if (input.conversationId) throw AppError.notFound();
      throw AppError.invalid(
        'conversation_id',
        'There is no conversation to send yet.',
        'no_conversation_yet',
      );
    }
    const known = (await this.visitors.widgetVisitor(organizationId, visitorId)).email;
    const email = input.email ?? known;
    if (!email) {
      throw AppError.invalid(
        'email',
        'The email field is required when we do not know your address.',
        'transcript_email_required',
      );
    }
    await rateLimited(
      this.limits,
      `transcript:${visitorId}`,
      TRANSCRIPTS_PER_VISITOR_HOUR,
      HOUR_MS,
    );
    if (input.email && !known) {
      await this.visitors.saveEmail(organizationId, visitorId, input.email);
      await this.conversationMail.resubscribe(organizationId, visitorId);
    }
    const conversation = await this.conversations.get(organizationId, startedId);
    await this.send(organizationId, conversation, email);
    return { conversation_id: Number(conversation.id), email };
  }

  /** A closed chat on a site that sends transcripts on close, to a visitor with an address. */
  private async onClose(organizationId: string, conversationId: string): Promise<void> {
    const conversation = await this.conversations.get(organizationId, conversationId);
    if (!conversation.visitorEmail) return;
    const site = await this.sites.get(organizationId, conversation.siteId);
    if (!withDefaults(site.widgetSettings).transcripts.on_close) return;
    if (await this.conversationMail.mailsOff(organizationId, conversation.visitorId)) return;
    await this.send(organizationId, conversation, conversation.visitorEmail);
  }

  private async send(
    organizationId: string,
    conversation: Awaited<ReturnType<ConversationsService['get']>>,
    email: string,
  ): Promise<void> {
    const site = await this.sites.get(organizationId, conversation.siteId);
    const rows = (await this.messages.all(organizationId, conversation.id)).filter(
      (message) => !message.private,
    );
    if (rows.length === 0) return;
    const time = new Intl.DateTimeFormat(conversation.locale ?? 'en', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: site.timezone,
    });
    const names = new Map<string, string>();
    const messages: { author: string | null; at: string; text: string }[] = [];
    for (const message of rows) {
      let author: string | null = site.name;
      if (message.senderType === 'visitor') author = null;
      else if (message.senderType === 'agent' && message.senderId) {
        author =
          names.get(message.senderId) ??
          (await this.agents.findMember(organizationId, message.senderId))?.name ??
          site.name;
        names.set(message.senderId, author);
      }
      const files = message.attachments.map((file) => `[${file.file_name}] ${file.url}`);
      messages.push({
        author,
        at: time.format(new Date(message.createdAt)),
        text: [message.body, ...files].filter(Boolean).join('\n'),
      });
    }
    const unsubscribeUrl = await this.mail.unsubscribeUrl(
      organizationId,
      conversation.visitorId,
      email,
    );
    const { id } = await this.mail.send(organizationId, {
      template: { kind: 'transcript', name: conversation.visitorName, messages, unsubscribeUrl },
      to: email,
      toName: conversation.visitorName,
      siteId: conversation.siteId,
      language: conversation.locale,
      conversationId: conversation.id,
      replyable: { visitorId: conversation.visitorId },
      listUnsubscribe: unsubscribeUrl,
    });
    this.logger.log({ msg: 'transcript mailed', conversationId: conversation.id, mailId: id });
  }
}
