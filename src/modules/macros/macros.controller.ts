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
  CreateMacroDto,
  MacroListDto,
  MacroQueryDto,
  MacroResponseDto,
  MacroRunResponseDto,
  RunMacroDto,
  toMacroDto,
  UpdateMacroDto,
} from './macros.dto';
import { MacrosService } from './macros.service';

type Link = { path: string; query: Record<string, unknown> };

/** Every member reads and runs macros; owners and admins write them (as canned responses). */
@ApiTags('agent: macros')
@Controller('api/agent/macros')
export class MacrosController {
  constructor(
    private readonly macros: MacrosService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Agent()
  @ApiOperation({ summary: "List the organization's macros by name" })
  @ApiOkResponse({ type: MacroListDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: MacroQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.macros.page(agent.organizationId, page);
    return paginate(rows.map(toMacroDto), total, page, this.config.publicUrl, link);
  }

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: 'Create a macro: a named sequence of actions run on a conversation in one step',
    description:
      'The canned responses, labels and members the actions name must be the organization’s ' +
      '(else a 422 naming `actions.<n>.<field>`); the name is unique regardless of case.',
  })
  @ApiCreatedResponse({ type: MacroResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Macro created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateMacroDto) {
    const row = await this.macros.create(agent.organizationId, agent.userId, body);
    return { data: toMacroDto(row) };
  }

  @Patch(':macro')
  @Agent({ role: 'admin' })
  @ApiIdParam('macro')
  @ApiOperation({ summary: "Change a macro's name or its actions (replaced as a whole)" })
  @ApiOkResponse({ type: MacroResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Macro updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('macro') id: string,
    @Body() body: UpdateMacroDto,
  ) {
    return { data: toMacroDto(await this.macros.update(agent.organizationId, id, body)) };
  }

  @Delete(':macro')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('macro')
  @ApiOperation({ summary: 'Delete a macro' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Macro deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('macro') id: string) {
    await this.macros.remove(agent.organizationId, id);
    return {};
  }

  @Post(':macro/run')
  @HttpCode(200)
  @Agent()
  @ApiIdParam('macro')
  @ApiOperation({
    summary: 'Run a macro on a conversation, as the caller, in one transaction',
    description:
      'The actions run in order; if one cannot be done (a reply or an assignment on a closed ' +
      'conversation, a canned response or label deleted since) none of them takes effect and ' +
      'its error is answered (409). A conversation that is not the organization’s is a 404.',
  })
  @ApiOkResponse({ type: MacroRunResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Macro run.')
  async run(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('macro') id: string,
    @Body() body: RunMacroDto,
  ) {
    const actor = {
      organizationId: agent.organizationId,
      agentUserId: Number(agent.userId),
      keyCreatorId: null,
    };
    return { data: await this.macros.run(actor, id, String(body.conversation_id)) };
  }
}
