import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type MessageRow, MessagesRepository, type SenderType } from './messages.repository';

@Injectable()
export class MessagesService {
  constructor(private readonly messages: MessagesRepository) {}

  create(
    manager: EntityManager,
    organizationId: string,
    message: {
      conversationId: string;
      senderType: SenderType;
      senderId: string | null;
      body: string;
    },
  ): Promise<MessageRow> {
    return this.messages.insert(manager, organizationId, message);
  }

  page(organizationId: string, conversationId: string, page: { perPage: number; offset: number }) {
    return this.messages.page(organizationId, conversationId, page);
  }

  all(organizationId: string, conversationId: string): Promise<MessageRow[]> {
    return this.messages.all(organizationId, conversationId);
  }

  after(
    organizationId: string,
    scope: { conversationId?: string; visitorId?: string },
    afterId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    return this.messages.after(organizationId, scope, afterId, limit);
  }

  before(
    organizationId: string,
    conversationId: string,
    beforeId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    return this.messages.before(organizationId, conversationId, beforeId, limit);
  }
}
