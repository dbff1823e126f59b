import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  BotReplyListDto,
  BotReplyQueryDto,
  BotReplyResponseDto,
  CreateBotReplyDto,
  toBotReplyDto,
  UpdateBotReplyDto,
} from './bot-replies.dto';
import { BotRepliesService } from './bot-replies.service';

type Link = { path: string; query: Record<string, unknown> };

/** Every member reads the answer bot's replies; owners and admins write them. */
@ApiTags('agent: bot replies')
@Controller('api/agent/bot-replies')
export class BotRepliesController {
  constructor(
    private readonly replies: BotRepliesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Agent()
  @ApiOperation({ summary: "List the answer bot's replies, newest first" })
  @ApiOkResponse({ type: BotReplyListDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: BotReplyQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.replies.page(
      agent.organizationId,
      { siteId: query.site_id === undefined ? undefined : String(query.site_id), q: query.q },
      page,
    );
    return paginate(rows.map(toBotReplyDto), total, page, this.config.publicUrl, link);
  }

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Write a bot reply (one per question and site)' })
  @ApiCreatedResponse({ type: BotReplyResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Bot reply created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateBotReplyDto) {
    const row = await this.replies.create(agent.organizationId, agent.userId, {
      siteId: String(body.site_id),
      question: body.question,
      answer: body.answer,
      enabled: body.enabled,
      sourceUrl: body.source_url,
    });
    return { data: toBotReplyDto(row) };
  }

  @Patch(':reply')
  @Agent({ role: 'admin' })
  @ApiIdParam('reply')
  @ApiOperation({ summary: 'Change a bot reply (a re-import leaves it alone from then on)' })
  @ApiOkResponse({ type: BotReplyResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Bot reply updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('reply') id: string,
    @Body() body: UpdateBotReplyDto,
  ) {
    const row = await this.replies.update(agent.organizationId, id, {
      question: body.question,
      answer: body.answer,
      enabled: body.enabled,
      sourceUrl: body.source_url,
    });
    return { data: toBotReplyDto(row) };
  }

  @Delete(':reply')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('reply')
  @ApiOperation({ summary: 'Delete a bot reply' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Bot reply deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('reply') id: string) {
    await this.replies.remove(agent.organizationId, id);
    return {};
  }
}
