import { Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { type ConversationMailJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { AgentsService } from '../agents/agents.service';
import { ConversationsService } from '../conversations/conversations.service';
import { MailService } from '../mail/mail.service';
import { type MessageRecord, MessagesService } from '../messages/messages.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SitesService } from '../sites/sites.service';
import { ConversationMailRepository } from './conversation-mail.repository';

/** At most this many replies in one mail (the rest wait for the next). */
const MAX_MESSAGES = 50;

/**
 * When a conversation's timer comes due: the agent and bot replies the visitor has neither read
 * nor can be receiving right now (no widget socket of the visitor is connected) go out in one
 * mail, answerable by mail, with a link back to the chat and a one-click unsubscribe. Replies
 * handled (mailed or seen) are marked, so none is mailed twice.
 */
@Injectable()
@QueueWorker(QueueName.ConversationMail, { concurrency: 4 })
export class ConversationMailProcessor implements JobProcessor<ConversationMailJob> {
  private readonly logger = new Logger('conversation-mail');

  constructor(
    private readonly repository: ConversationMailRepository,
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly agents: AgentsService,
    private readonly sites: SitesService,
    private readonly realtime: RealtimeService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  async process(job: Job<ConversationMailJob>): Promise<void> {
    const { organizationId, conversationId } = job.data;
    const conversation = await this.conversations.get(organizationId, conversationId);
    const email = conversation.visitorEmail;
    if (!email) return;
    const handled = await this.repository.handledThrough(organizationId, conversationId);
    const unseen = await this.messages.unseenByVisitor(
      organizationId,
      conversationId,
      handled,
      MAX_MESSAGES,
    );
    if (unseen.length === 0) return;
    const last = unseen[unseen.length - 1].id;
    if (
      (await this.realtime.visitorSockets(conversation.visitorId)) > 0 ||
      (await this.repository.mailsOff(organizationId, conversation.visitorId))
    ) {
      await this.repository.markHandled(organizationId, conversationId, last);
      return;
    }
    const site = await this.sites.get(organizationId, conversation.siteId);
    const unsubscribeUrl = await this.mail.unsubscribeUrl(
      organizationId,
      conversation.visitorId,
      email,
    );
    const { id } = await this.mail.send(organizationId, {
      template: {
        kind: 'conversation_reply',
        name: conversation.visitorName,
        messages: await this.authored(organizationId, site.name, unseen),
        chatUrl: site.domain
          ? `https://${site.domain}/`
          : `${this.config.publicUrl}/demo?widget_key=${encodeURIComponent(site.widgetKey)}`,
        unsubscribeUrl,
      },
      to: email,
      toName: conversation.visitorName,
      siteId: conversation.siteId,
      language: conversation.locale,
      conversationId,
      replyable: { visitorId: conversation.visitorId },
      listUnsubscribe: unsubscribeUrl,
    });
    await this.repository.markHandled(organizationId, conversationId, last);
    this.logger.log({
      msg: 'conversation replies mailed',
      conversationId,
      mailId: id,
      count: unseen.length,
    });
  }

  /** Each reply with its author's name (the agent's, or the site's for the bot). */
  private async authored(organizationId: string, siteName: string, messages: MessageRecord[]) {
    const names = new Map<string, string>();
    const result: { author: string; text: string }[] = [];
    for (const message of messages) {
      let author = siteName;
      if (message.senderType === 'agent' && message.senderId) {
        const known = names.get(message.senderId);
        author =
          known ??
          (await this.agents.findMember(organizationId, message.senderId))?.name ??
          siteName;
        names.set(message.senderId, author);
      }
      const files = message.attachments.map((file) => `[${file.file_name}] ${file.url}`);
      result.push({ author, text: [message.body, ...files].filter(Boolean).join('\n') });
    }
    return result;
  }
}
