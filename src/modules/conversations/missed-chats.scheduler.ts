import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { type MissedChatJob, QueueName } from '../../queue/queue-names';
import { OutboxService } from '../outbox/outbox.service';

const jobId = (conversationId: string | number) => `missed-${conversationId}`;

/**
 * The missed-chat timer (DESIGN section 5): a delayed job per started conversation, due
 * MISSED_CHAT_SECONDS later. It is scheduled from the committed `conversation.started` event, so
 * a crash between the visitor's message and the scheduling loses no timer. An agent's reply or
 * assignment removes it; should the removal fail, the job finds the chat no longer waiting and
 * does nothing.
 */
@Injectable()
export class MissedChatsScheduler implements OnModuleInit {
  private readonly logger = new Logger(MissedChatsScheduler.name);

  constructor(
    @InjectQueue(QueueName.MissedChats) private readonly queue: Queue<MissedChatJob>,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('conversation.started', 'MissedChatsScheduler', async (event) => {
      const { conversation } = event.payload;
      await this.queue.add(
        'missed',
        { organizationId: String(event.organizationId), conversationId: String(conversation.id) },
        {
          jobId: jobId(conversation.id),
          delay: this.config.env.MISSED_CHAT_SECONDS * 1000,
          removeOnComplete: true,
          removeOnFail: 100,
        },
      );
    });
  }

  async cancel(conversationId: string): Promise<void> {
    try {
      await this.queue.remove(jobId(conversationId));
    } catch (error) {
      this.logger.warn({
        msg: 'missed-chat timer not removed',
        conversationId,
        err: String(error),
      });
    }
  }
}
