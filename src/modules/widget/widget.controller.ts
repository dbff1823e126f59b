import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  CurrentVisitor,
  CurrentWidget,
  Widget,
  WidgetSession,
} from '../../common/auth/auth.decorators';
import type { VisitorPrincipal, WidgetPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { messagePush } from '../conversations/chat-pushes';
import { ConversationReviewsService } from '../conversations/conversation-reviews.service';
import { VisitorChatService } from '../conversations/visitor-chat.service';
import { TicketsService } from '../tickets/tickets.service';
import { countryFrom } from '../visitors/visitor-country';
import {
  ChatMessageListDto,
  ConversationEndedResponseDto,
  SessionEndedResponseDto,
  ReviewResponseDto,
  WidgetMessageCreatedResponseDto,
  WidgetMessagesQueryDto,
  WidgetReadDto,
  WidgetReadResponseDto,
  WidgetReviewDto,
  WidgetSendMessageDto,
} from './widget-chat.dto';
import {
  subjectOf,
  toWidgetTicket,
  WidgetCreateTicketDto,
  WidgetOfflineMessageDto,
  WidgetTicketResponseDto,
} from './widget-tickets.dto';
import {
  VisitorProfileResponseDto,
  WidgetInitDto,
  WidgetInitResponseDto,
  WidgetProfileDto,
} from './widget.dto';
import { WidgetService } from './widget.service';

@ApiTags('widget')
@Controller('api/widget')
export class WidgetController {
  constructor(
    private readonly widget: WidgetService,
    private readonly chat: VisitorChatService,
    private readonly reviews: ConversationReviewsService,
    private readonly tickets: TicketsService,
    private readonly config: AppConfig,
  ) {}

  @Post('init')
  @HttpCode(200)
  @Widget()
  @ApiBearerAuth('widget_session')
  @ApiOperation({
    summary: 'Open or resume a visitor session',
    description:
      'Creates the visitor (or resumes it: by a session token of this site as `Authorization: Bearer`, else by `visitor_uid`; a UID of another site, or of a session ended with `POST /api/widget/session/end`, is 404), makes its open conversation, and returns a session token for later calls and the Socket.IO `/widget` namespace.',
  })
  @ApiOkResponse({ type: WidgetInitResponseDto })
  @ApiErrors(422)
  init(
    @CurrentWidget() widget: WidgetPrincipal,
    @Body() body: WidgetInitDto,
    @Req() request: Request,
  ) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    return this.widget.init(
      widget,
      body,
      countryFrom(request.headers, this.config.countryHeader),
      token,
    );
  }

  @Post('profile')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({ summary: 'Submit the pre-chat form (built-in and custom fields)' })
  @ApiOkResponse({ type: VisitorProfileResponseDto })
  @ApiErrors(422)
  profile(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetProfileDto) {
    return this.widget.saveProfile(visitor, body);
  }

  @Post('messages')
  @WidgetSession()
  @ResponseMessage('Message sent.')
  @ApiOperation({
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

  @Post('tickets')
  @WidgetSession()
  @ResponseMessage('Ticket created.')
  @ApiOperation({
    summary: 'Raise a ticket from the widget (source widget, priority normal); needs ticketing',
    description:
      "Filed under the widget's site and linked to the visitor; `name` and `email` default to the visitor's. Emits `ticket.created`.",
  })
  @ApiCreatedResponse({ type: WidgetTicketResponseDto })
  @ApiErrors(422)
  async ticket(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetCreateTicketDto) {
    const ticket = await this.tickets.createFromWidget(visitor.organizationId, {
      siteId: visitor.siteId,
      visitorId: visitor.visitorId,
      subject: body.subject,
      description: body.description,
      customerName: body.name || undefined,
      customerEmail: body.email ?? undefined,
    });
    return { data: toWidgetTicket(ticket) };
  }

  @Post('offline-messages')
  @WidgetSession()
  @ResponseMessage('Message received. We will answer by email.')
  @ApiOperation({
    summary: 'Leave a message while no agent is online (becomes a ticket); needs ticketing',
    description:
      "For `widget_config.agents_online` false (accepted at any time). The message becomes a ticket (source `widget`, priority normal, subject from the message's first line) linked to the visitor, answered at `email`; emits `ticket.created`. Show the visitor its `ticket_number`.",
  })
  @ApiCreatedResponse({ type: WidgetTicketResponseDto })
  @ApiErrors(422)
  async offlineMessage(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Body() body: WidgetOfflineMessageDto,
  ) {
    const ticket = await this.tickets.createFromWidget(visitor.organizationId, {
      siteId: visitor.siteId,
      visitorId: visitor.visitorId,
      subject: subjectOf(body.message),
      description: body.message,
      customerName: body.name || undefined,
      customerEmail: body.email,
    });
    return { data: toWidgetTicket(ticket) };
  }

  @Post('session/end')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    summary: "End the visitor's session (the widget's shutdown, a shared computer)",
    description:
      "Logs the visitor out of its account login, and ends the session: every session token of the visitor, and its `visitor_uid` in init, stop working (401 and 404), and its sockets close. The visitor's conversations stay for the agents; the next init starts a new visitor.",
  })
  @ApiOkResponse({ type: SessionEndedResponseDto })
  async endSession(@CurrentVisitor() visitor: VisitorPrincipal) {
    await this.widget.endSession(visitor);
    return { data: { ended: true } };
  }
}
