import { Injectable, type OnModuleInit } from '@nestjs/common';
import { conversationUpdate } from '../conversations/chat-pushes';
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
    this.outbox.subscribe('conversation.started', async (event) => {
      if (!event.organizationId) return;
      const conversation = event.payload.conversation as { id: number };
      await this.assign(event.organizationId, [String(conversation.id)]);
    });
    // Capacity freed up, or an agent came online: the waiting, unassigned chats are offered again.
    for (const type of ['chat.closed', 'agent.online']) {
      this.outbox.subscribe(type, async (event) => {
        if (event.organizationId) await this.assign(event.organizationId);
      });
    }
  }

  private async assign(organizationId: string, conversationIds?: string[]): Promise<void> {
    const assigned = await this.repository.assignWaiting(
      organizationId,
      conversationIds,
      (manager, chat) =>
        // The internal event a manual assignment also records (not one of the webhook events).
        this.outbox.publish(manager, {
          type: 'conversation.assigned',
          organizationId,
          payload: {
            organization_id: Number(organizationId),
            conversation_id: Number(chat.conversationId),
            site_id: Number(chat.siteId),
            assigned_agent_id: Number(chat.agentId),
            previous_agent_id: null,
            auto: true,
          },
        }),
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
