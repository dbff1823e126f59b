import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
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
  ApiKeyCreatedResponseDto,
  ApiKeyListResponseDto,
  CreateApiKeyDto,
  toApiKeyDto,
} from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

type Link = { path: string; query: Record<string, unknown> };

@ApiTags('agent: api keys')
@Agent({ role: 'admin' })
@Controller('api/agent/api-keys')
export class ApiKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List active API keys, newest first (never the key itself, only its prefix)',
  })
  @ApiOkResponse({ type: ApiKeyListResponseDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.keys.page(agent.organizationId, page);
    return paginate(rows.map(toApiKeyDto), total, page, this.config.publicUrl, link);
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key with abilities; the full key is returned once' })
  @ApiCreatedResponse({ type: ApiKeyCreatedResponseDto })
  @ApiErrors(422)
  @ResponseMessage('API key created. Copy it now: it will not be shown again.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateApiKeyDto) {
    const { key, plainText } = await this.keys.create(agent.organizationId, agent.userId, body);
    return { data: toApiKeyDto(key), plain_text_key: plainText };
  }

  @Delete(':key')
  @HttpCode(200)
  @ApiIdParam('key')
  @ApiOperation({ summary: 'Revoke an API key: every request with it answers 401 from then on' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('API key revoked.')
  async revoke(@CurrentAgent() agent: AgentPrincipal, @IdParam('key') keyId: string) {
    await this.keys.revoke(agent, keyId);
    return {};
  }
}
