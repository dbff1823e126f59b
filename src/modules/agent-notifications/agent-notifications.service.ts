import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Role } from '../../common/auth/auth.types';
import { AppConfig } from '../../config/app-config';
import { type AgentNotificationJob, QueueName } from '../../queue/queue-names';
import type { AgentNotificationKind } from '../mail/mail-templates';
import {
  AgentNotificationsRepository,
  type NotificationPreferences,
  type NotificationThread,
} from './agent-notifications.repository';

/** The longest text of a visitor's or customer's message a notification quotes. */
const DETAIL_MAX = 1000;

/**
 * Agent notifications by email (DESIGN section 9): each agent's choices, and the notifications
 * themselves. A notification is kept for the agent and one job per agent and conversation (or
 * ticket) mails what has gathered: at once when the agent was not mailed about it within
 * AGENT_NOTIFY_DIGEST_SECONDS, else when that time is up (the job id makes a burst one mail).
 * Only agents who are not online are told: an agent in the dashboard sees it live.
 */
@Injectable()
export class AgentNotificationsService {
  constructor(
    private readonly repository: AgentNotificationsRepository,
    private readonly config: AppConfig,
    @InjectQueue(QueueName.AgentNotifications)
    private readonly queue: Queue<AgentNotificationJob>,
  ) {}

  preferences(organizationId: string, userId: string): Promise<NotificationPreferences> {
    return this.repository.preferences(organizationId, userId);
  }

  updatePreferences(
    organizationId: string,
    userId: string,
    changes: Partial<NotificationPreferences>,
  ): Promise<NotificationPreferences> {
    return this.repository.setPreferences(organizationId, userId, changes);
  }

  /**
   * Tells the agents named (`userIds`), or those of `roles`, or all (neither), who want `kind`
   * and are not online, about the thread. `detail` is what the visitor or customer wrote.
   */
  async notify(
    organizationId: string,
    kind: AgentNotificationKind,
    thread: NotificationThread,
    who: { userIds?: string[]; roles?: Role[] },
    detail = '',
  ): Promise<void> {
    if (who.userIds?.length === 0) return;
    const agents = await this.repository.recipients(organizationId, kind, who);
    for (const agent of agents) {
      if (agent.status === 'online') continue;
      const id = await this.repository.add(organizationId, agent.id, thread, {
        kind,
        detail: detail.slice(0, DETAIL_MAX),
      });
      // A job of its own, due when the agent's window for the thread ends (at once when no mail
      // went out in it): it mails, or, still early, hands over to the window's one job.
      const delay = await this.dueIn(organizationId, agent.id, thread);
      await this.enqueue(organizationId, agent.id, thread, delay, `n${id}`);
    }
  }

  /** When the digest window of the agent's last mail about the thread ends (0: now). */
  async dueIn(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    lastMailedAt?: Date | null,
  ): Promise<number> {
    const last =
      lastMailedAt === undefined
        ? await this.repository.lastMailedAt(organizationId, userId, thread)
        : lastMailedAt;
    const digestMs = this.config.env.AGENT_NOTIFY_DIGEST_SECONDS * 1000;
    return last ? Math.max(0, new Date(last).getTime() + digestMs - Date.now()) : 0;
  }

  /**
   * Queues a mailing job for the agent and thread, named by `name` (`n<notification>` for a new
   * notification, `due-<time>` for the end of a window: early jobs of one window make one).
   */
  async enqueue(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    delay: number,
    name: string,
  ): Promise<void> {
    const key = 'conversationId' in thread ? `c${thread.conversationId}` : `t${thread.ticketId}`;
    await this.queue.add(
      'notify',
      { organizationId, userId, ...thread },
      {
        jobId: `agent-notify-${userId}-${key}-${name}`,
        delay,
        attempts: 5,
        backoff: { type: 'exponential', delay: 5000 },
        removeOnComplete: true,
        removeOnFail: 100,
      },
    );
  }
}
