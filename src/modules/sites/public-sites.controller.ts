import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { toContentImportState } from './content-import-state';
import { SitesService } from './sites.service';
import {
  PublicSiteDetailDto,
  publicImportState,
  SiteDetailResponseDto,
  SitePageDto,
  SiteQueryDto,
  toPublicSite,
} from './public-sites.dto';

@ApiTags('public: sites')
@Controller('api/v1/sites')
export class PublicSitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('sites:read')
  @ApiOperation({ summary: "List the organization's sites, newest first" })
  @ApiOkResponse({ type: SitePageDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: SiteQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.sites.page(
      key.organizationId,
      { isActive: query.is_active },
      page,
    );
    return paginate(rows.map(toPublicSite), total, page, this.config.publicUrl, link);
  }

  @Get(':site')
  @ApiKey('sites:read')
  @ApiIdParam('site')
  @ApiOperation({ summary: 'Read one site, with its time zone and content import state' })
  @ApiOkResponse({ type: SiteDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('site') siteId: string) {
    const site = await this.sites.get(key.organizationId, siteId);
    const detail: PublicSiteDetailDto = {
      ...toPublicSite(site),
      timezone: site.timezone,
      content_import: publicImportState(
        toContentImportState(await this.sites.contentImport(key.organizationId, siteId)),
      ),
    };
    return { data: detail, ...detail };
  }
}
