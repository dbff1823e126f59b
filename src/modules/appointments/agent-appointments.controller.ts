import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import {
  AppointmentSettingsResponseDto,
  toSettingsResponse,
  UpdateAppointmentSettingsDto,
} from './appointment-settings.dto';
import { AppointmentSettingsService } from './appointment-settings.service';
import {
  AppointmentChangeResponseDto,
  AppointmentPageDto,
  AppointmentQueryDto,
  SiteQueryDto,
  UpdateAppointmentDto,
  toAgentAppointment,
} from './appointments.dto';
import { AppointmentsService } from './appointments.service';

const siteOf = (query: { site_id?: number }) =>
  query.site_id === undefined ? undefined : String(query.site_id);

/**
 * Appointment rules and the booked appointments, per site: every member reads the rules and
 * handles the appointments; owners and admins change the rules.
 */
@ApiTags('agent: appointments')
@Controller('api/agent')
export class AgentAppointmentsController {
  constructor(
    private readonly appointments: AppointmentsService,
    private readonly settings: AppointmentSettingsService,
    private readonly config: AppConfig,
  ) {}

  @Get('appointment-settings')
  @Agent()
  @ApiOperation({ summary: "A site's appointment settings and time zone" })
  @ApiOkResponse({ type: AppointmentSettingsResponseDto })
  @ApiErrors(404, 422)
  async getSettings(@CurrentAgent() agent: AgentPrincipal, @Query() query: SiteQueryDto) {
    return toSettingsResponse(await this.settings.get(agent.organizationId, siteOf(query)));
  }

  @Patch('appointment-settings')
  @Agent({ role: 'admin' })
  @ResponseMessage('Appointment settings updated.')
  @ApiOperation({
    summary: "Change a site's appointment settings (owner/admin)",
    description:
      'Every field is optional; each integer must be within the range of spec section 8 (422 naming the field). `working_hours` replaces the weekdays it names.',
  })
  @ApiOkResponse({ type: AppointmentSettingsResponseDto })
  @ApiErrors(404, 422)
  async updateSettings(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: SiteQueryDto,
    @Body() body: UpdateAppointmentSettingsDto,
  ) {
    return toSettingsResponse(
      await this.settings.update(agent.organizationId, siteOf(query), body),
    );
  }

  @Get('appointments')
  @Agent()
  @ApiOperation({
    summary: "A site's appointments in time order, by status and between local dates",
    description:
      "`from` and `to` are dates in the site's time zone, both included. Paged like every list (`per_page` default 50, at most 100).",
  })
  @ApiOkResponse({ type: AppointmentPageDto })
  @ApiErrors(404, 422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AppointmentQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total, timezone } = await this.appointments.page(
      agent.organizationId,
      { siteId: siteOf(query), status: query.status, from: query.from, to: query.to },
      page,
    );
    const data = rows.map((row) => toAgentAppointment(row, timezone));
    return paginate(data, total, page, this.config.publicUrl, link);
  }

  @Patch('appointments/:appointment')
  @Agent()
  @ApiIdParam('appointment')
  @ResponseMessage('Appointment updated.')
  @ApiOperation({
    summary: "Set an appointment's status (any of the four) and notes",
    description:
      'Cancelling frees the time; reviving a cancelled appointment whose time has been booked since is a 409.',
  })
  @ApiOkResponse({ type: AppointmentChangeResponseDto })
  @ApiErrors(404, 409, 422)
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('appointment') appointmentId: string,
    @Body() body: UpdateAppointmentDto,
  ) {
    const updated = await this.appointments.update(agent.organizationId, appointmentId, body);
    return { data: { id: Number(updated.id), status: updated.status, notes: updated.notes } };
  }
}
