import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  OrganizationSettingsResponseDto,
  toOrganizationSettingsDto,
  UpdateOrganizationDto,
} from './organization-settings.dto';
import { OrganizationsService } from './organizations.service';

@ApiTags('agent: organization')
@Controller('api/agent/organization')
export class OrganizationSettingsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @Agent()
  @ApiOperation({ summary: "The caller's organization: name, plan and automatic assignment" })
  @ApiOkResponse({ type: OrganizationSettingsResponseDto })
  async get(@CurrentAgent() agent: AgentPrincipal) {
    return { data: toOrganizationSettingsDto(await this.organizations.get(agent.organizationId)) };
  }

  @Patch()
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary:
      'Rename the organization, change its automatic assignment, or require two-factor authentication',
  })
  @ApiOkResponse({ type: OrganizationSettingsResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Organization updated.')
  async update(@CurrentAgent() agent: AgentPrincipal, @Body() body: UpdateOrganizationDto) {
    const row = await this.organizations.updateSettings(agent.organizationId, {
      name: body.name,
      autoAssignmentEnabled: body.auto_assignment?.enabled,
      autoAssignmentCapacity: body.auto_assignment?.capacity,
      requireTwoFactor: body.require_two_factor,
    });
    return { data: toOrganizationSettingsDto(row) };
  }
}
