import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttachmentsService, type Uploader } from '../attachments/attachments.service';
import { type MessageRow, MessagesRepository, type SenderType } from './messages.repository';

@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly attachments: AttachmentsService,
  ) {}

  /**
   * Stores a message in `manager`'s transaction. Attachments named by id must be unsent uploads
   * of `uploader` in the organization (else 422); the message carries them from then on.
   */
  async create(
    manager: EntityManager,
    organizationId: string,
    message: {
      conversationId: string;
      senderType: SenderType;
      senderId: string | null;
      body: string;
      private?: boolean;
      attachments?: { uploader: Uploader; ids: number[] };
    },
  ): Promise<MessageRow> {
    const { attachments, ...fields } = message;
    const taken = attachments
      ? await this.attachments.take(manager, organizationId, attachments.uploader, attachments.ids)
      : { items: [], ids: [] };
    const row = await this.messages.insert(manager, organizationId, {
      ...fields,
      attachments: taken.items,
    });
    if (taken.ids.length > 0) {
      await this.attachments.attach(manager, organizationId, taken.ids, row.id);
    }
    return row;
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

  unreadForVisitor(organizationId: string, visitorId: string): Promise<number> {
    return this.messages.unreadForVisitor(organizationId, visitorId);
  }

  unseenByVisitor(
    organizationId: string,
    conversationId: string,
    afterId: string,
    limit: number,
  ): Promise<MessageRow[]> {
    return this.messages.unseenByVisitor(organizationId, conversationId, afterId, limit);
  }
}
