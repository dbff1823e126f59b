import { Injectable, type OnModuleInit } from '@nestjs/common';
import { conversationUpdate } from '../conversations/chat-pushes';
import { conversationEvents } from '../conversations/conversation-events';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { AssignmentRepository } from './assignment.repository';

/**
 * Automatic assignment (per organization, off by default): a chat that starts goes round robin
 * to an online agent below capacity. A chat nobody could take stays unassigned and waiting, and
 * is taken when capacity frees up (a chat closes) or an agent comes online.
 */
@Injectable()
export class AssignmentService implements OnModuleInit {
  constructor(
    private readonly repository: AssignmentRepository,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('conversation.started', 'AssignmentService', async (event) => {
      if (!event.organizationId) return;
      await this.assign(event.organizationId, [String(event.payload.conversation.id)]);
    });
    // Capacity freed up, or an agent came online: the waiting, unassigned chats are offered again.
    this.outbox.subscribe(['chat.closed', 'agent.online'], 'AssignmentService', async (event) => {
      if (event.organizationId) await this.assign(event.organizationId);
    });
  }

  private async assign(organizationId: string, conversationIds?: string[]): Promise<void> {
    const assigned = await this.repository.assignWaiting(
      organizationId,
      conversationIds,
      (manager, chat) =>
        // The internal event a manual assignment also records (not one of the webhook events).
        this.outbox.publish(
          manager,
          conversationEvents.assigned(
            organizationId,
            { id: chat.conversationId, site_id: chat.siteId },
            chat.agentId,
            null,
            { auto: true },
          ),
        ),
    );
    for (const chat of assigned) {
      this.realtime.toOrganization(
        organizationId,
        'conversation.updated',
        conversationUpdate(chat.conversationId, 'waiting', chat.agentId, null),
      );
    }
  }
}
