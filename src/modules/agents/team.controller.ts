import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import {
  AgentListResponseDto,
  AgentResponseDto,
  CreateTeamMemberDto,
  toAgentDto,
  UpdateTeamMemberDto,
} from './agents.dto';
import { AgentsService } from './agents.service';

@ApiTags('agent: team')
@Agent({ role: 'admin' })
@Controller('api/agent/team')
export class TeamController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOperation({ summary: 'List the members of the organization' })
  @ApiOkResponse({ type: AgentListResponseDto })
  async list(@CurrentAgent() actor: AgentPrincipal) {
    return { data: (await this.agents.list(actor.organizationId)).map(toAgentDto) };
  }

  @Post()
  @ApiOperation({ summary: 'Add a member who can log in with the given email and password' })
  @ApiCreatedResponse({ type: AgentResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Team member created.')
  async create(@CurrentAgent() actor: AgentPrincipal, @Body() body: CreateTeamMemberDto) {
    return { data: toAgentDto(await this.agents.invite(actor, body)) };
  }

  @Patch(':user')
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
