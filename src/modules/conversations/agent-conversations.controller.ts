import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';

/** The furthest a snooze may reach. */
const MAX_SNOOZE_MS = 366 * 24 * 3600 * 1000;
import { toMessageDto } from '../messages/messages.dto';
import {
  AfterQueryDto,
  AgentConversationDetailResponseDto,
  toConversationReview,
  AgentMessageListDto,
  AgentReplyDto,
  AssignDto,
  ConversationDetailQueryDto,
  ConversationMessagesQueryDto,
  ConversationResponseDto,
  InboxPageDto,
  InboxQueryDto,
  toInboxConversationDto,
  ReadDto,
  ReadResponseDto,
  SnoozeDto,
  SnoozeResponseDto,
  snoozedUntil,
} from './agent-conversations.dto';
import { messagePush } from './chat-pushes';
import {
  ConversationClosedResponseDto,
  MessageCreatedResponseDto,
  toConversationDetail,
  toConversationDto,
} from './conversations.dto';
import { type Actor, AgentChatService } from './agent-chat.service';
import { ConversationsService } from './conversations.service';
import { InboxService } from './inbox.service';

type Link = { path: string; query: Record<string, unknown> };

const actor = (agent: AgentPrincipal): Actor => ({
  organizationId: agent.organizationId,
  agentUserId: Number(agent.userId),
  keyCreatorId: null,
});

/** The agent inbox: the organization's conversations, answered by the logged-in agent. */
@ApiTags('agent: inbox')
@Controller('api/agent')
export class AgentConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly chat: AgentChatService,
    private readonly config: AppConfig,
    private readonly inbox: InboxService,
  ) {}

  @Get('conversations')
  @Agent()
  @ApiOperation({
    summary: 'List conversations for the inbox views',
    description:
      'Mine (`assigned_agent_id=me`), Unassigned (`assigned_agent_id=none`), Missed or Closed ' +
      '(`status`), by site or label; newest first or by latest activity (`sort=activity`). Each ' +
      'item carries its labels, the last message and the unread count.',
  })
  @ApiOkResponse({ type: InboxPageDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: InboxQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.inbox.list(agent, query, page);
    return paginate(rows.map(toInboxConversationDto), total, page, this.config.publicUrl, link);
  }

  @Get('messages')
  @Agent()
  @ApiOperation({
    summary: "Every message of the organization's conversations after an id",
    description: 'Oldest first, at most 200 per call: how a reconnecting inbox catches up.',
  })
  @ApiOkResponse({ type: AgentMessageListDto })
  @ApiErrors(422)
  async messagesAfter(@CurrentAgent() agent: AgentPrincipal, @Query() query: AfterQueryDto) {
    const rows = await this.conversations.messagesAfter(
      agent.organizationId,
      undefined,
      String(query.after_id ?? 0),
    );
    return { data: rows.map(messagePush) };
  }

  @Get('conversations/:conversation')
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Read a conversation with all its messages, or with the latest `message_limit`',
  })
  @ApiOkResponse({ type: AgentConversationDetailResponseDto })
  @ApiErrors(404, 422)
  async get(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Query() query: ConversationDetailQueryDto,
  ) {
    const [{ conversation, messages, earlier }, labels] = await Promise.all([
      this.conversations.withMessages(agent.organizationId, id, query.message_limit),
      this.inbox.labelsOf(agent.organizationId, id),
    ]);
    return {
      data: {
        ...toConversationDetail(conversation, messages),
        labels,
        ...toConversationReview(conversation),
        snoozed_until: snoozedUntil(conversation.snoozed_until),
        has_earlier_messages: earlier,
      },
    };
  }

  @Get('conversations/:conversation/messages')
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: "A conversation's messages after (or before) an id, oldest first (at most 200)",
  })
  @ApiOkResponse({ type: AgentMessageListDto })
  @ApiErrors(404, 422)
  async conversationMessages(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Query() query: ConversationMessagesQueryDto,
  ) {
    const rows =
      query.before_id === undefined
        ? await this.conversations.messagesAfter(
            agent.organizationId,
            id,
            String(query.after_id ?? 0),
          )
        : await this.conversations.messagesBefore(
            agent.organizationId,
            id,
            String(query.before_id),
          );
    return { data: rows.map(messagePush) };
  }

  @Post('conversations/:conversation/messages')
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Reply as the logged-in agent (a waiting or missed chat becomes active)',
    description:
      'With `private: true` the message is a private note: shown to agents only (the inbox, the agent socket and the public API, marked `private`), never to the visitor; it emits no `message.sent`, changes neither the status nor the first response, and may be added to a closed conversation. `attachment_ids` are files the caller uploaded with `POST /api/agent/attachments`.',
  })
  @ApiCreatedResponse({ type: MessageCreatedResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Message sent.')
  async reply(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: AgentReplyDto,
  ) {
    const message = toMessageDto(
      await this.chat.reply(actor(agent), id, {
        body: body.body,
        attachmentIds: body.attachment_ids,
        uploader: { type: 'agent', id: agent.userId },
        private: body.private,
      }),
    );
    return { data: message, ...message };
  }

  @Post('conversations/:conversation/assign')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Assign the conversation to an agent (default the caller), optionally with a note',
    description:
      'A waiting or missed chat becomes active; a closed one is a 409. With `note`, a hand-over: ' +
      'a private note for the team is left in the same transaction.',
  })
  @ApiOkResponse({ type: ConversationResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Conversation assigned.')
  async assign(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: AssignDto,
  ) {
    return {
      data: toConversationDto(await this.chat.assign(actor(agent), id, body.agent_id, body.note)),
    };
  }

  @Post('conversations/:conversation/reopen')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Open a closed conversation again (active, held by its assignee or the caller)',
    description:
      'The visitor can write in it again. One that is not closed is answered unchanged; a 409 when the visitor has started another conversation since (a visitor has one open conversation).',
  })
  @ApiOkResponse({ type: ConversationResponseDto })
  @ApiErrors(404, 409)
  @ResponseMessage('Conversation reopened.')
  async reopen(@CurrentAgent() agent: AgentPrincipal, @IdParam('conversation') id: string) {
    return { data: toConversationDto(await this.chat.reopen(actor(agent), id)) };
  }

  @Post('conversations/:conversation/snooze')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Snooze the conversation until a time, or wake it (`until: null`)',
    description:
      'A snoozed conversation leaves the open views (it is listed with `snoozed=true`) and comes ' +
      'back when the time passes or when the visitor writes. Snoozing a closed one is a 409; ' +
      '`until` must be in the future and within a year.',
  })
  @ApiOkResponse({ type: SnoozeResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Conversation snoozed.')
  async snooze(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: SnoozeDto,
  ) {
    const until = body.until === null ? null : new Date(body.until);
    if (until) {
      const ahead = until.getTime() - Date.now();
      if (ahead <= 0)
        throw AppError.invalid(
          'until',
          'The until field must be a time to come.',
          'snooze_in_past',
        );
      if (ahead > MAX_SNOOZE_MS) {
        throw AppError.invalid('until', 'The until field must be within a year.', 'snooze_too_far');
      }
    }
    const row = await this.chat.snooze(actor(agent), id, until);
    return { data: { id: Number(row.id), snoozed_until: snoozedUntil(row.snoozedUntil) } };
  }

  @Post('conversations/:conversation/unassign')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Take the conversation from whoever holds it (it shows under Unassigned again)',
    description: 'Its status stays as it is; a closed one is a 409, an unassigned one unchanged.',
  })
  @ApiOkResponse({ type: ConversationResponseDto })
  @ApiErrors(404, 409)
  @ResponseMessage('Conversation unassigned.')
  async unassign(@CurrentAgent() agent: AgentPrincipal, @IdParam('conversation') id: string) {
    return { data: toConversationDto(await this.chat.unassign(actor(agent), id)) };
  }

  @Post('conversations/:conversation/close')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Close the conversation (closing it again returns the original closed_at)',
  })
  @ApiOkResponse({ type: ConversationClosedResponseDto })
  @ApiErrors(404)
  @ResponseMessage('Conversation closed.')
  async close(@CurrentAgent() agent: AgentPrincipal, @IdParam('conversation') id: string) {
    const closed = await this.chat.close(actor(agent), id);
    return {
      data: {
        id: Number(closed.id),
        status: closed.status,
        closed_at: new Date(closed.closedAt).toISOString(),
      },
    };
  }

  @Post('conversations/:conversation/read')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({ summary: 'Mark the conversation read up to a message (pushed to the visitor)' })
  @ApiOkResponse({ type: ReadResponseDto })
  @ApiErrors(404, 422)
  async read(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: ReadDto,
  ) {
    const read = await this.conversations.markRead(
      agent.organizationId,
      id,
      String(body.message_id),
    );
    return { data: { conversation_id: Number(id), message_id: Number(read.position) } };
  }
}
