import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import type { WidgetSettings } from './widget-settings';
import {
  CreateSiteDto,
  SiteListResponseDto,
  SiteResponseDto,
  toSiteDto,
  UpdateSiteDto,
} from './sites.dto';
import { SitesService } from './sites.service';

@ApiTags('agent: sites')
@Agent({ role: 'admin' })
@Controller('api/agent/sites')
export class SitesController {
  constructor(private readonly sites: SitesService) {}

  @Get()
  @ApiOperation({ summary: "List the organization's sites" })
  @ApiOkResponse({ type: SiteListResponseDto })
  async list(@CurrentAgent() agent: AgentPrincipal) {
    return { data: (await this.sites.list(agent.organizationId)).map(toSiteDto) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a site with its own widget key' })
  @ApiCreatedResponse({ type: SiteResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Site created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateSiteDto) {
    const site = await this.sites.create(undefined, agent.organizationId, {
      ...body,
      widget_settings: body.widget_settings as Partial<WidgetSettings> | undefined,
    });
    return { data: toSiteDto(site) };
  }

  @Get(':site')
  @ApiIdParam('site')
  @ApiOperation({ summary: 'Read a site' })
  @ApiOkResponse({ type: SiteResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    return { data: toSiteDto(await this.sites.get(agent.organizationId, siteId)) };
  }

  @Patch(':site')
  @ApiIdParam('site')
  @ApiOperation({
    summary: "Update a site's name, domain, time zone, state, allowed domains or widget settings",
  })
  @ApiOkResponse({ type: SiteResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Site updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('site') siteId: string,
    @Body() body: UpdateSiteDto,
  ) {
    const site = await this.sites.update(agent.organizationId, siteId, {
      ...body,
      widget_settings: body.widget_settings as Partial<WidgetSettings> | undefined,
    });
    return { data: toSiteDto(site) };
  }
}
