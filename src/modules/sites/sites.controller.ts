import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { toContentImportState } from './content-import-state';
import type { WidgetSettings } from './widget-settings';
import {
  CreateSiteDto,
  AgentSiteDetailResponseDto,
  SiteDirectoryResponseDto,
  SiteListResponseDto,
  SiteResponseDto,
  toSiteDto,
  toSiteNameDto,
  UpdateSiteDto,
} from './sites.dto';
import { SitesService } from './sites.service';

type Link = { path: string; query: Record<string, unknown> };

/** Sites: every member reads their names; owners and admins read and change the rest. */
@ApiTags('agent: sites')
@Controller('api/agent/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  // Before `:site`, which would otherwise take `directory` for an id.
  @Get('directory')
  @Agent()
  @ApiOperation({
    summary: "The sites' names, oldest first",
    description:
      'Readable by every member (agents too), so the dashboard can name the site of a chat; the settings stay with owners and admins.',
  })
  @ApiOkResponse({ type: SiteDirectoryResponseDto })
  @ApiErrors(422)
  async directory(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const filter = { oldestFirst: true };
    const { rows, total } = await this.sites.page(agent.organizationId, filter, page);
    return paginate(rows.map(toSiteNameDto), total, page, this.config.publicUrl, link);
  }

  @Get()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: "List the organization's sites, oldest (the first site) first" })
  @ApiOkResponse({ type: SiteListResponseDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const filter = { oldestFirst: true };
    const { rows, total } = await this.sites.page(agent.organizationId, filter, page);
    return paginate(
      rows.map((site) => toSiteDto(site, this.config.publicUrl)),
      total,
      page,
      this.config.publicUrl,
      link,
    );
  }

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Create a site with its own widget key' })
  @ApiCreatedResponse({ type: SiteResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Site created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateSiteDto) {
    const site = await this.sites.create(undefined, agent.organizationId, {
      ...body,
      widget_settings: body.widget_settings as Partial<WidgetSettings> | undefined,
    });
    return { data: toSiteDto(site, this.config.publicUrl) };
  }

  @Get(':site')
  @Agent({ role: 'admin' })
  @ApiIdParam('site')
  @ApiOperation({ summary: 'Read a site, with its content import' })
  @ApiOkResponse({ type: AgentSiteDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    const site = await this.sites.get(agent.organizationId, siteId);
    const state = await this.sites.contentImport(agent.organizationId, siteId);
    return {
      data: {
        ...toSiteDto(site, this.config.publicUrl),
        content_import: toContentImportState(state),
      },
    };
  }

  @Patch(':site')
  @Agent({ role: 'admin' })
  @ApiIdParam('site')
  @ApiOperation({
    summary:
      "Update a site's name, domain, time zone, state, allowed domains, widget settings or help center",
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
    return { data: toSiteDto(site, this.config.publicUrl) };
  }
}
