import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import { type ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from './agents.service';
import {
  AgentDetailResponseDto,
  AgentPageDto,
  AgentQueryDto,
  toPublicAgent,
} from './public-agents.dto';

@ApiTags('public: agents')
@Controller('api/v1/agents')
export class PublicAgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('agents:read')
  @ApiOperation({ summary: 'List the team agents, newest first' })
  @ApiOkResponse({ type: AgentPageDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: AgentQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.agents.page(key.organizationId, { role: query.role }, page);
    return paginate(rows.map(toPublicAgent), total, page, this.config.publicUrl, link);
  }

  @Get(':agent')
  @ApiKey('agents:read')
  @ApiIdParam('agent')
  @ApiOperation({ summary: 'Read one agent, with last_seen_at' })
  @ApiOkResponse({ type: AgentDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('agent') agentId: string) {
    const user = await this.agents.get(key.organizationId, agentId);
    return {
      data: {
        ...toPublicAgent(user),
        last_seen_at: user.lastSeenAt ? new Date(user.lastSeenAt).toISOString() : null,
      },
    };
  }
}
