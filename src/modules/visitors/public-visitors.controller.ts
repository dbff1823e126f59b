import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { VisitorsService } from './visitors.service';
import {
  PublicVisitorDetailDto,
  VisitorDetailResponseDto,
  VisitorPageDto,
  VisitorQueryDto,
  toPublicVisitor,
} from './public-visitors.dto';

@ApiTags('public: visitors')
@Controller('api/v1/visitors')
export class PublicVisitorsController {
  constructor(
    private readonly visitors: VisitorsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('visitors:read')
  @ApiOperation({ summary: 'List visitors, newest first, optionally searched or of one site' })
  @ApiOkResponse({ type: VisitorPageDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: VisitorQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.visitors.page(
      key.organizationId,
      { search: query.search, siteId: query.site_id },
      page,
    );
    return paginate(rows.map(toPublicVisitor), total, page, this.config.publicUrl, link);
  }

  @Get(':visitor')
  @ApiKey('visitors:read')
  @ApiIdParam('visitor')
  @ApiOperation({ summary: 'Read one visitor, with its conversation and ticket counts' })
  @ApiOkResponse({ type: VisitorDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('visitor') visitorId: string) {
    const visitor = await this.visitors.detail(key.organizationId, visitorId);
    const detail: PublicVisitorDetailDto = {
      ...toPublicVisitor(visitor),
      conversations_count: Number(visitor.conversations_count),
      tickets_count: Number(visitor.tickets_count),
    };
    return { data: detail, ...detail };
  }
}
