import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, WidgetSession } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { messagePush } from './chat-pushes';
import { ConversationReviewsService } from './conversation-reviews.service';
import { VisitorChatService } from './visitor-chat.service';
import {
  ChatMessageListDto,
  ConversationEndedResponseDto,
  ReviewResponseDto,
  WidgetMessageCreatedResponseDto,
  WidgetMessagesQueryDto,
  WidgetReadDto,
  WidgetReadResponseDto,
  WidgetReviewDto,
  WidgetSendMessageDto,
} from './widget-chat.dto';

/**
 * The visitor's side of the chat over HTTP (the `/widget` socket is WidgetGateway). The operation
 * ids keep the names these routes had in WidgetController, so OpenAPI and the clients are unchanged.
 */
@ApiTags('widget')
@Controller('api/widget')
export class WidgetChatController {
  constructor(
    private readonly chat: VisitorChatService,
    private readonly reviews: ConversationReviewsService,
  ) {}

  @Post('messages')
  @WidgetSession()
  @ResponseMessage('Message sent.')
  @ApiOperation({
    operationId: 'Widget_send',
    summary: 'Send a visitor message',
    description:
      'The first message starts the open conversation (`conversation.started`); after a close it opens a new one. `attachment_ids` are files the visitor uploaded with `POST /api/widget/attachments`; with attachments the body may be empty.',
  })
  @ApiCreatedResponse({ type: WidgetMessageCreatedResponseDto })
  @ApiErrors(422)
  async send(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetSendMessageDto) {
    const { message } = await this.chat.send(visitor, {
      body: body.body,
      attachmentIds: body.attachment_ids,
    });
    const data = messagePush(message);
    return { data, ...data };
  }

  @Get('messages')
  @WidgetSession()
  @ApiOperation({
    operationId: 'Widget_messages',
    summary: "The visitor's messages after an id",
    description: 'Oldest first, at most 200 per call: how a reconnecting widget catches up.',
  })
  @ApiOkResponse({ type: ChatMessageListDto })
  @ApiErrors(422)
  async messages(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Query() query: WidgetMessagesQueryDto,
  ) {
    const rows = await this.chat.messagesAfter(visitor, String(query.after_id ?? 0));
    return { data: rows.map(messagePush), unread_count: await this.chat.unread(visitor) };
  }

  @Post('read')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    operationId: 'Widget_read',
    summary: 'Mark a conversation read up to a message (pushed to the agents)',
    description:
      'The HTTP twin of the `/widget` socket `read` event; answers the new position and the unread count left.',
  })
  @ApiOkResponse({ type: WidgetReadResponseDto })
  @ApiErrors(422)
  async read(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetReadDto) {
    const position = await this.chat.markRead(
      visitor,
      String(body.conversation_id),
      String(body.message_id),
    );
    return {
      data: {
        conversation_id: body.conversation_id,
        message_id: Number(position),
        unread_count: await this.chat.unread(visitor),
      },
    };
  }

  @Post('end-chat')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    operationId: 'Widget_end',
    summary: 'The visitor ends the chat',
    description:
      'Closes the open conversation (`chat.closed` with `closed_by` null). Ending again answers the closed conversation unchanged; 404 before any chat.',
  })
  @ApiOkResponse({ type: ConversationEndedResponseDto })
  @ApiErrors(422)
  async end(@CurrentVisitor() visitor: VisitorPrincipal) {
    const ended = await this.chat.end(visitor);
    return {
      data: {
        id: Number(ended.id),
        status: ended.status,
        closed_at: new Date(ended.closedAt).toISOString(),
      },
    };
  }

  @Post('reviews')
  @WidgetSession()
  @ResponseMessage('Review submitted.')
  @ApiOperation({
    operationId: 'Widget_review',
    summary: 'Rate a conversation (1 to 5) with an optional comment',
    description: 'Once per conversation (409 after); the latest conversation unless one is named.',
  })
  @ApiCreatedResponse({ type: ReviewResponseDto })
  @ApiErrors(409, 422)
  async review(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetReviewDto) {
    const review = await this.reviews.review(visitor, {
      rating: body.rating,
      comment: body.comment,
      conversationId: body.conversation_id === undefined ? undefined : String(body.conversation_id),
    });
    return {
      data: {
        conversation_id: Number(review.conversationId),
        rating: review.rating,
        comment: review.comment,
      },
    };
  }
}
