import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import { type ApiKeyPrincipal, ROLES, type Role } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import {
  ListLink,
  PageMetaDto,
  PageQueryDto,
  pageRequest,
  paginate,
} from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import type { UserRow } from './agents.repository';
import { AgentsService } from './agents.service';

class AgentQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;
}

class PublicAgentDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Ada Agent' }) name!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ enum: ['online', 'away', 'offline'] }) status!: string;
}

class PublicAgentDetailDto extends PublicAgentDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
}

class AgentPageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicAgentDto] }) data!: PublicAgentDto[];
}

class AgentDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PublicAgentDetailDto }) data!: PublicAgentDetailDto;
}

const toPublicAgent = (user: UserRow): PublicAgentDto => ({
  id: Number(user.id),
  name: user.name,
  email: user.email,
  role: user.role,
  status: user.status,
});

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
        last_seen_at: user.last_seen_at ? new Date(user.last_seen_at).toISOString() : null,
      },
    };
  }
}
