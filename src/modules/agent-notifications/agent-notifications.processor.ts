import { Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { type AgentNotificationJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { AgentsService } from '../agents/agents.service';
import { ConversationsService } from '../conversations/conversations.service';
import type { MailTemplate } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import { TicketsService } from '../tickets/tickets.service';
import {
  AgentNotificationsRepository,
  type NotificationThread,
  type PendingNotification,
} from './agent-notifications.repository';
import { AgentNotificationsService } from './agent-notifications.service';

type NotificationMail = Extract<MailTemplate, { kind: 'agent_notification' }>;

/** What a mail about the thread needs besides the notifications: its subject and addresses. */
interface ThreadFacts {
  about: NotificationMail['about'];
  /** Who wrote the quoted texts (the visitor or the customer). */
  author: string | null;
  siteId: string;
  path: string;
}

/**
 * Mails one agent what gathered about one conversation or ticket, in one mail answerable by
 * mail as that agent (`Reply-To` bound to them). Every notification has a job of its own, so
 * none waits on another's; never twice within AGENT_NOTIFY_DIGEST_SECONDS: a job that comes
 * early hands over to the one job at the window's end (its id names the window).
 */
@Injectable()
@QueueWorker(QueueName.AgentNotifications, { concurrency: 4 })
export class AgentNotificationsProcessor implements JobProcessor<AgentNotificationJob> {
  private readonly logger = new Logger('agent-notifications');

  constructor(
    private readonly repository: AgentNotificationsRepository,
    private readonly notifications: AgentNotificationsService,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
    private readonly tickets: TicketsService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  async process(job: Job<AgentNotificationJob>): Promise<void> {
    const { organizationId, userId } = job.data;
    const thread: NotificationThread = job.data.conversationId
      ? { conversationId: job.data.conversationId }
      : { ticketId: job.data.ticketId! };
    // Under the thread's lock, so two jobs never mail within one window.
    const dueAt = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockThread(manager, organizationId, userId, thread);
      const last = await this.repository.lastMailedAt(organizationId, userId, thread, manager);
      const wait = await this.notifications.dueIn(organizationId, userId, thread, last);
      if (wait > 0) return Date.now() + wait;
      const pending = await this.repository.pending(organizationId, userId, thread, manager);
      if (pending.length === 0) return 0;
      // Queued in the mail log while the lock is held, then marked: a failure rolls back and
      // the job's retry mails them.
      await this.send(organizationId, userId, thread, pending);
      await this.repository.markMailed(
        manager,
        organizationId,
        userId,
        pending.map((row) => row.id),
      );
      return 0;
    });
    // Early (a burst): the window's one job mails what has gathered when it ends.
    if (dueAt > 0) {
      let window = Math.ceil(dueAt / 1000);
      // This job was that window's (early by clock skew): the next second's, not itself.
      if (job.id?.endsWith(`-due-${window}`)) window += 1;
      await this.notifications.enqueue(
        organizationId,
        userId,
        thread,
        Math.max(0, window * 1000 - Date.now()),
        `due-${window}`,
      );
    }
  }

  private async send(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    pending: PendingNotification[],
  ): Promise<void> {
    const agent = await this.agents.findMember(organizationId, userId);
    const facts = agent ? await this.facts(organizationId, thread) : undefined;
    if (!agent || !facts) {
      this.logger.log({ msg: 'notifications dropped: agent or thread gone', userId, ...thread });
      return;
    }
    const publicUrl = this.config.publicUrl;
    const { id } = await this.mail.send(organizationId, {
      template: {
        kind: 'agent_notification',
        name: agent.name,
        about: facts.about,
        events: pending.map((row) => ({
          kind: row.kind,
          author: facts.author,
          text: row.detail || null,
        })),
        url: `${publicUrl}${facts.path}`,
        settingsUrl: `${publicUrl}/settings/notifications`,
      },
      to: agent.email,
      toName: agent.name,
      siteId: facts.siteId,
      ...thread,
      replyable: { userId },
    });
    this.logger.log({
      msg: 'agent notified by mail',
      userId,
      ...thread,
      mailId: id,
      count: pending.length,
    });
  }

  /** The thread's subject and link; undefined when it no longer exists. */
  private async facts(
    organizationId: string,
    thread: NotificationThread,
  ): Promise<ThreadFacts | undefined> {
    try {
      if ('conversationId' in thread) {
        const conversation = await this.conversations.get(organizationId, thread.conversationId);
        return {
          about: { type: 'conversation', visitor: conversation.visitorName },
          author: conversation.visitorName,
          siteId: conversation.siteId,
          path: `/inbox/${conversation.id}`,
        };
      }
      const { ticket } = await this.tickets.get(organizationId, thread.ticketId);
      return {
        about: { type: 'ticket', ticketNumber: ticket.ticketNumber, subject: ticket.subject },
        author: ticket.customerName,
        siteId: ticket.siteId,
        path: `/tickets/${ticket.id}`,
      };
    } catch (error) {
      if (error instanceof AppError) return undefined;
      throw error;
    }
  }
}
