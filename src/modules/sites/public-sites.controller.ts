import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import {
  ListLink,
  PageMetaDto,
  PageQueryDto,
  pageRequest,
  paginate,
  QueryBoolean,
} from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import type { SiteRow } from './sites.repository';
import { SitesService } from './sites.service';

class SiteQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  is_active?: boolean;
}

class PublicSiteDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) domain!: string | null;
  @ApiProperty() is_active!: boolean;
}

class ContentImportSummaryDto {
  @ApiProperty() pages!: number;
  @ApiProperty() kb_articles!: number;
  @ApiProperty() bot_replies!: number;
}

class ContentImportDto {
  @ApiProperty({ enum: ['not_started', 'completed'], example: 'not_started' }) status!: string;
  @ApiProperty({ example: 0 }) progress!: number;
  @ApiProperty({ example: 'Not started' }) progress_label!: string;
  @ApiProperty({ type: ContentImportSummaryDto }) summary!: ContentImportSummaryDto;
}

class PublicSiteDetailDto extends PublicSiteDto {
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ type: ContentImportDto }) content_import!: ContentImportDto;
}

class SitePageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicSiteDto] }) data!: PublicSiteDto[];
}

/** Site get repeats the site's fields at the top level beside `data` (DESIGN section 3). */
class SiteDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PublicSiteDetailDto }) data!: PublicSiteDetailDto;
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) domain!: string | null;
  @ApiProperty() is_active!: boolean;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: ContentImportDto }) content_import!: ContentImportDto;
}

const toPublicSite = (site: SiteRow): PublicSiteDto => ({
  id: Number(site.id),
  name: site.name,
  domain: site.domain,
  is_active: site.is_active,
});

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
      // No content import exists yet; the object keeps the documented shape (see docs/decisions.md).
      content_import: {
        status: 'not_started',
        progress: 0,
        progress_label: 'Not started',
        summary: { pages: 0, kb_articles: 0, bot_replies: 0 },
      },
    };
    return { data: detail, ...detail };
  }
}
