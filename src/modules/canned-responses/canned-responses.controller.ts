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
  CannedResponseListDto,
  CannedResponseQueryDto,
  CannedResponseResponseDto,
  CreateCannedResponseDto,
  toCannedResponseDto,
  UpdateCannedResponseDto,
} from './canned-responses.dto';
import { CannedResponsesService } from './canned-responses.service';

type Link = { path: string; query: Record<string, unknown> };

/** Every agent reads them; owners and admins write them (as in Chatwoot). */
@ApiTags('agent: canned responses')
@Controller('api/agent/canned-responses')
export class CannedResponsesController {
  constructor(
    private readonly canned: CannedResponsesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Agent()
  @ApiOperation({ summary: "List the organization's canned responses by shortcut" })
  @ApiOkResponse({ type: CannedResponseListDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: CannedResponseQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.canned.page(agent.organizationId, query.q, page);
    return paginate(rows.map(toCannedResponseDto), total, page, this.config.publicUrl, link);
  }

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Create a canned response (the shortcut is unique per organization)' })
  @ApiCreatedResponse({ type: CannedResponseResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Canned response created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateCannedResponseDto) {
    const row = await this.canned.create(agent.organizationId, agent.userId, body);
    return { data: toCannedResponseDto(row) };
  }

  @Patch(':canned_response')
  @Agent({ role: 'admin' })
  @ApiIdParam('canned_response')
  @ApiOperation({ summary: "Change a canned response's shortcut or body" })
  @ApiOkResponse({ type: CannedResponseResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Canned response updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('canned_response') id: string,
    @Body() body: UpdateCannedResponseDto,
  ) {
    return { data: toCannedResponseDto(await this.canned.update(agent.organizationId, id, body)) };
  }

  @Delete(':canned_response')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('canned_response')
  @ApiOperation({ summary: 'Delete a canned response' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Canned response deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('canned_response') id: string) {
    await this.canned.remove(agent.organizationId, id);
    return {};
  }
}
