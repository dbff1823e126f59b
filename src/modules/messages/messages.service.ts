import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttachmentsService, type Uploader } from '../attachments/attachments.service';
import { type MessageRecord, toMessageRecord } from './message-record';
import { MessagesRepository, type MessageAction, type SenderType } from './messages.repository';

/** What other features may use of messages (issue 32, point 7): the record, never the row. */
export type { MessageAction, MessageRecord, SenderType } from './message-record';

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
      senderMismatch?: boolean;
      actions?: MessageAction[];
      /** `text` unless said (`generated`: the answer bot composed it with a language model). */
      type?: string;
      attachments?: { uploader: Uploader; ids: number[] };
    },
  ): Promise<MessageRecord> {
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
    return toMessageRecord(row);
  }

  async page(
    organizationId: string,
    conversationId: string,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: MessageRecord[]; total: number }> {
    const { rows, total } = await this.messages.page(organizationId, conversationId, page);
    return { rows: rows.map(toMessageRecord), total };
  }

  async all(organizationId: string, conversationId: string): Promise<MessageRecord[]> {
    return (await this.messages.all(organizationId, conversationId)).map(toMessageRecord);
  }

  async after(
    organizationId: string,
    scope: { conversationId?: string; visitorId?: string },
    afterId: string,
    limit: number,
  ): Promise<MessageRecord[]> {
    return (await this.messages.after(organizationId, scope, afterId, limit)).map(toMessageRecord);
  }

  async before(
    organizationId: string,
    conversationId: string,
    beforeId: string,
    limit: number,
  ): Promise<MessageRecord[]> {
    const rows = await this.messages.before(organizationId, conversationId, beforeId, limit);
    return rows.map(toMessageRecord);
  }

  unreadForVisitor(organizationId: string, visitorId: string): Promise<number> {
    return this.messages.unreadForVisitor(organizationId, visitorId);
  }

  async unseenByVisitor(
    organizationId: string,
    conversationId: string,
    afterId: string,
    limit: number,
  ): Promise<MessageRecord[]> {
    const rows = await this.messages.unseenByVisitor(
      organizationId,
      conversationId,
      afterId,
      limit,
    );
    return rows.map(toMessageRecord);
  }
}
