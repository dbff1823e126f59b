import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { OutboxService } from '../outbox/outbox.service';
import { conversationEvents } from './conversation-events';
import { ConversationsRepository } from './conversations.repository';

/** The visitor's rating of a chat (widget API), committed with its `review.submitted` event. */
@Injectable()
export class ConversationReviewsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * A rating (1 to 5) with an optional comment, once per conversation (409 after that): the
   * given conversation of the visitor, else the latest one.
   */
  async review(
    visitor: VisitorPrincipal,
    input: { rating: number; comment?: string; conversationId?: string },
  ): Promise<{ conversationId: string; rating: number; comment: string | null }> {
    const organizationId = visitor.organizationId;
    return this.dataSource.transaction(async (manager) => {
      const conversation = await this.conversations.lockForVisitor(
        manager,
        organizationId,
        visitor.visitorId,
        input.conversationId,
      );
      if (!conversation) throw AppError.notFound();
      if (conversation.rating !== null) {
        throw AppError.conflict(
          'This conversation has already been reviewed.',
          'conversation_reviewed',
        );
      }
      const comment = input.comment ?? null;
      await this.conversations.review(
        manager,
        organizationId,
        conversation.id,
        input.rating,
        comment,
      );
      await this.outbox.publish(
        manager,
        conversationEvents.reviewSubmitted(organizationId, conversation.id, {
          rating: input.rating,
          comment,
        }),
      );
      return { conversationId: conversation.id, rating: input.rating, comment };
    });
  }
}
