import { Body, Controller, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AgentsService } from './agents.service';
import { PresenceDto, PresenceResponseDto } from './presence.dto';

@ApiTags('agent: inbox')
@Controller('api/agent/presence')
export class PresenceController {
  constructor(private readonly agents: AgentsService) {}

  @Patch()
  @Agent()
  @ApiOperation({
    summary: "Set the caller's presence",
    description: 'Connecting the `/agent` socket sets `online`, its last disconnect `offline`.',
  })
  @ApiOkResponse({ type: PresenceResponseDto })
  @ApiErrors(422)
  async set(@CurrentAgent() agent: AgentPrincipal, @Body() body: PresenceDto) {
    const presence = await this.agents.setPresence(agent.organizationId, agent.userId, body.status);
    return {
      data: {
        status: presence.status,
        last_seen_at: new Date(presence.last_seen_at).toISOString(),
      },
    };
  }
}
