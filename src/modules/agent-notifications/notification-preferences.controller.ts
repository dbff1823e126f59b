import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  NotificationPreferencesResponseDto,
  UpdateNotificationPreferencesDto,
} from './agent-notifications.dto';
import { AgentNotificationsService } from './agent-notifications.service';

/** The calling agent's notification mails (every role, each agent their own). */
@ApiTags('agent: notifications')
@Controller('api/agent/me/notifications')
export class NotificationPreferencesController {
  constructor(private readonly notifications: AgentNotificationsService) {}

  @Get()
  @Agent()
  @ApiOperation({ summary: 'Which notification mails I get (each on by default)' })
  @ApiOkResponse({ type: NotificationPreferencesResponseDto })
  async get(@CurrentAgent() agent: AgentPrincipal) {
    return { data: await this.notifications.preferences(agent.organizationId, agent.userId) };
  }

  @Patch()
  @Agent()
  @ApiOperation({ summary: 'Turn notification mails on or off (the kinds left out stay)' })
  @ApiOkResponse({ type: NotificationPreferencesResponseDto })
  @ApiErrors(422)
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @Body() body: UpdateNotificationPreferencesDto,
  ) {
    return {
      data: await this.notifications.updatePreferences(agent.organizationId, agent.userId, body),
    };
  }
}
