import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { VisitorPanelResponseDto } from './visitor-panel.dto';
import { VisitorPanelService } from './visitor-panel.service';

@ApiTags('agent: inbox')
@Controller('api/agent/visitors')
export class VisitorPanelController {
  constructor(private readonly panel: VisitorPanelService) {}

  @Get(':visitor')
  @Agent()
  @ApiIdParam('visitor')
  @ApiOperation({
    summary: 'The visitor panel: profile, custom fields, current page, account login, history',
    description:
      'Earlier conversations, tickets and appointments of the visitor (newest first, at most 50 each).',
  })
  @ApiOkResponse({ type: VisitorPanelResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('visitor') id: string) {
    return { data: await this.panel.panel(agent.organizationId, id) };
  }
}
