import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { MailModule } from '../mail/mail.module';
import { MessagesModule } from '../messages/messages.module';
import { OutboxModule } from '../outbox/outbox.module';
import { TicketsModule } from '../tickets/tickets.module';
import { AgentNotificationsProcessor } from './agent-notifications.processor';
import { AgentNotificationsRepository } from './agent-notifications.repository';
import { AgentNotificationsService } from './agent-notifications.service';
import { AgentNotificationsSubscriber } from './agent-notifications.subscriber';
import { NotificationPreferencesController } from './notification-preferences.controller';

/**
 * Agent notifications by email: each agent's choices, the domain events that make a
 * notification, and the grouped mails (answerable by mail as the agent).
 */
@Module({
  imports: [
    AgentsModule,
    ConversationsModule,
    MailModule,
    MessagesModule,
    OutboxModule,
    TicketsModule,
  ],
  controllers: [NotificationPreferencesController],
  providers: [
    AgentNotificationsRepository,
    AgentNotificationsService,
    AgentNotificationsSubscriber,
    AgentNotificationsProcessor,
  ],
  exports: [AgentNotificationsService],
})
export class AgentNotificationsModule {}
