import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { type MissedChatJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { conversationUpdate } from './chat-pushes';
import { conversationEvents } from './conversation-events';
import { ConversationsRepository } from './conversations.repository';

/** A due missed-chat timer: a chat still waiting becomes `missed`, with `chat.missed`. */
@Injectable()
@QueueWorker(QueueName.MissedChats, { concurrency: 5 })
export class MissedChatsProcessor implements JobProcessor<MissedChatJob> {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly dataSource: DataSource,
  ) {}

  async process(job: Job<MissedChatJob>): Promise<void> {
    const { organizationId, conversationId } = job.data;
    const missed = await this.dataSource.transaction(async (manager) => {
      const row = await this.conversations.markMissed(manager, organizationId, conversationId);
      if (!row) return undefined;
      await this.outbox.publish(
        manager,
        conversationEvents.missed(organizationId, conversationId, row),
      );
      return row;
    });
    if (missed) {
      this.realtime.toBothSides(
        { organizationId, visitorId: missed.visitor_id, conversationId },
        'conversation.updated',
        conversationUpdate(conversationId, 'missed', null, null),
      );
    }
  }
}
