import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  ConversationLabelsResponseDto,
  CreateLabelDto,
  LabelListDto,
  LabelResponseDto,
  SetConversationLabelsDto,
  toLabelDto,
  UpdateLabelDto,
} from './labels.dto';
import { LabelsService } from './labels.service';

type Link = { path: string; query: Record<string, unknown> };

/** Every agent reads labels and labels conversations; owners and admins manage the set. */
@ApiTags('agent: labels')
@Controller('api/agent')
export class LabelsController {
  constructor(
    private readonly labels: LabelsService,
    private readonly config: AppConfig,
  ) {}

  @Get('labels')
  @Agent()
  @ApiOperation({ summary: "List the organization's labels by name" })
  @ApiOkResponse({ type: LabelListDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.labels.page(agent.organizationId, page);
    return paginate(rows.map(toLabelDto), total, page, this.config.publicUrl, link);
  }

  @Post('labels')
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Create a label (names are unique per organization, any case)' })
  @ApiCreatedResponse({ type: LabelResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Label created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateLabelDto) {
    return { data: toLabelDto(await this.labels.create(agent.organizationId, body)) };
  }

  @Patch('labels/:label')
  @Agent({ role: 'admin' })
  @ApiIdParam('label')
  @ApiOperation({ summary: 'Rename a label or change its color' })
  @ApiOkResponse({ type: LabelResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Label updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('label') id: string,
    @Body() body: UpdateLabelDto,
  ) {
    return { data: toLabelDto(await this.labels.update(agent.organizationId, id, body)) };
  }

  @Delete('labels/:label')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('label')
  @ApiOperation({ summary: 'Delete a label (it disappears from every conversation)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Label deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('label') id: string) {
    await this.labels.remove(agent.organizationId, id);
    return {};
  }

  @Put('conversations/:conversation/labels')
  @Agent()
  @ApiIdParam('conversation')
  @ApiOperation({ summary: "Replace a conversation's labels with the given ones" })
  @ApiOkResponse({ type: ConversationLabelsResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Labels updated.')
  async setOnConversation(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('conversation') id: string,
    @Body() body: SetConversationLabelsDto,
  ) {
    const labels = await this.labels.setOnConversation(agent.organizationId, id, body.label_ids);
    return { data: { conversation_id: Number(id), labels: labels.map(toLabelDto) } };
  }
}
