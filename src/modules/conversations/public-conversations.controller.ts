import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { toMessageDto } from '../messages/messages.dto';
import {
  CloseConversationDto,
  ConversationClosedResponseDto,
  ConversationDetailResponseDto,
  ConversationPageDto,
  ConversationQueryDto,
  MessageCreatedResponseDto,
  MessagePageDto,
  SendMessageDto,
  toConversationDetail,
  toConversationDto,
} from './conversations.dto';
import { toConversationRecord } from './conversation-record';
import { AgentChatService } from './agent-chat.service';
import { ConversationsService } from './conversations.service';

type Link = { path: string; query: Record<string, unknown> };

@ApiTags('public: conversations')
@Controller('api/v1/conversations')
export class PublicConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly chat: AgentChatService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('conversations:read')
  @ApiOperation({ summary: 'List conversations, newest first' })
  @ApiOkResponse({ type: ConversationPageDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: ConversationQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.conversations.page(
      key.organizationId,
      { status: query.status, siteId: query.site_id },
      page,
    );
    return paginate(
      rows.map((row) => toConversationDto(toConversationRecord(row))),
      total,
      page,
      this.config.publicUrl,
      link,
    );
  }

  @Get(':conversation')
  @ApiKey('conversations:read')
  @ApiIdParam('conversation')
  @ApiOperation({ summary: 'Read a conversation with all its messages' })
  @ApiOkResponse({ type: ConversationDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('conversation') id: string) {
    const { conversation, messages } = await this.conversations.withMessages(
      key.organizationId,
      id,
    );
    return { data: toConversationDetail(conversation, messages) };
  }

  @Get(':conversation/messages')
  @ApiKey('conversations:read')
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: "A conversation's messages, newest first",
    description: "Agents' private notes are included, marked `private: true`.",
  })
  @ApiOkResponse({ type: MessagePageDto })
  @ApiErrors(404, 422)
  async messages(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('conversation') id: string,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.conversations.messagePage(key.organizationId, id, page);
    return paginate(rows.map(toMessageDto), total, page, this.config.publicUrl, link);
  }

  @Post(':conversation/messages')
  @Idempotent()
  @ApiKey('conversations:write')
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Send an agent reply into the conversation',
    description:
      '`attachment_ids` are files this API key uploaded with `POST /api/v1/attachments`; with attachments the body may be empty.',
  })
  @ApiCreatedResponse({ type: MessageCreatedResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Message sent.')
  async reply(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: SendMessageDto,
  ) {
    const message = toMessageDto(
      await this.chat.reply(
        {
          organizationId: key.organizationId,
          agentUserId: body.agent_user_id,
          keyCreatorId: key.createdByUserId,
        },
        id,
        {
          body: body.body,
          attachmentIds: body.attachment_ids,
          uploader: { type: 'api_key', id: key.id },
        },
      ),
    );
    return { data: message, ...message };
  }

  @Post(':conversation/close')
  @Idempotent()
  @HttpCode(200)
  @ApiKey('conversations:write')
  @ApiIdParam('conversation')
  @ApiOperation({
    summary: 'Close the conversation (closing it again returns the original closed_at)',
  })
  @ApiOkResponse({ type: ConversationClosedResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Conversation closed.')
  async close(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: CloseConversationDto,
  ) {
    const closed = await this.chat.close(
      {
        organizationId: key.organizationId,
        agentUserId: body.agent_user_id,
        keyCreatorId: key.createdByUserId,
      },
      id,
    );
    return {
      data: {
        id: Number(closed.id),
        status: closed.status,
        closed_at: new Date(closed.closedAt).toISOString(),
      },
    };
  }
}
