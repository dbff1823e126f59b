import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  AgentListResponseDto,
  AgentResponseDto,
  CreateTeamMemberDto,
  TeamDirectoryResponseDto,
  toAgentDto,
  toTeamMemberDto,
  UpdateTeamMemberDto,
} from './agents.dto';
import { AgentsService } from './agents.service';

type Link = { path: string; query: Record<string, unknown> };

/** The team: every member reads the directory; owners and admins manage the members. */
@ApiTags('agent: team')
@Controller('api/agent/team')
export class TeamController {
  constructor(
    private readonly agents: AgentsService,
    private readonly config: AppConfig,
  ) {}

  @Get('directory')
  @Agent()
  @ApiOperation({
    summary: "The team directory, oldest first: each member's name, role and status",
    description:
      'Readable by every member (agents too), so the dashboard can name who holds a chat or wrote a message; `GET /api/agent/team` (owner/admin) adds the email addresses.',
  })
  @ApiOkResponse({ type: TeamDirectoryResponseDto })
  @ApiErrors(422)
  async directory(
    @CurrentAgent() actor: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const filter = { oldestFirst: true };
    const { rows, total } = await this.agents.page(actor.organizationId, filter, page);
    return paginate(rows.map(toTeamMemberDto), total, page, this.config.publicUrl, link);
  }

  @Get()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'List the members of the organization, oldest first' })
  @ApiOkResponse({ type: AgentListResponseDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() actor: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const filter = { oldestFirst: true };
    const { rows, total } = await this.agents.page(actor.organizationId, filter, page);
    return paginate(rows.map(toAgentDto), total, page, this.config.publicUrl, link);
  }

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Add a member who can log in with the given email and password' })
  @ApiCreatedResponse({ type: AgentResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Team member created.')
  async create(@CurrentAgent() actor: AgentPrincipal, @Body() body: CreateTeamMemberDto) {
    return { data: toAgentDto(await this.agents.invite(actor, body)) };
  }

  @Patch(':user')
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: "Change a member's name or role (the last owner keeps the owner role)" })
  @ApiOkResponse({ type: AgentResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Team member updated.')
  async update(
    @CurrentAgent() actor: AgentPrincipal,
    @IdParam('user') userId: string,
    @Body() body: UpdateTeamMemberDto,
  ) {
    return { data: toAgentDto(await this.agents.update(actor, userId, body)) };
  }

  @Delete(':user')
  @Agent({ role: 'admin' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a member (the last owner cannot be removed)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404, 409)
  @ResponseMessage('Team member removed.')
  async remove(@CurrentAgent() actor: AgentPrincipal, @IdParam('user') userId: string) {
    await this.agents.remove(actor, userId);
    return {};
  }
}
