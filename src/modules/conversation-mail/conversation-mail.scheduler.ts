import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { type ConversationMailJob, QueueName } from '../../queue/queue-names';
import { OutboxService } from '../outbox/outbox.service';

/**
 * Conversations by email (DESIGN section 9): an agent's reply (`message.sent`, committed) starts
 * a timer of CONVERSATION_EMAIL_DELAY_SECONDS for its conversation. The job id is the
 * conversation's, so further replies while it waits add nothing: the job mails them all at once.
 */
@Injectable()
export class ConversationMailScheduler implements OnModuleInit {
  constructor(
    @InjectQueue(QueueName.ConversationMail) private readonly queue: Queue<ConversationMailJob>,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('message.sent', 'ConversationMailScheduler', async (event) => {
      const conversationId = String(event.payload.conversation_id);
      await this.queue.add(
        'conversation-mail',
        { organizationId: String(event.organizationId), conversationId },
        {
          jobId: `conversation-mail-${conversationId}`,
          delay: this.config.env.CONVERSATION_EMAIL_DELAY_SECONDS * 1000,
          attempts: 5,
          backoff: { type: 'exponential', delay: 5000 },
          removeOnComplete: true,
          removeOnFail: 100,
        },
      );
    });
  }
}
