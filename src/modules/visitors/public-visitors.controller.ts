import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import {
  ListLink,
  PageMetaDto,
  PageQueryDto,
  pageRequest,
  paginate,
  QueryInt,
} from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import type { VisitorRow } from './visitors.repository';
import { VisitorsService } from './visitors.service';

class VisitorQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Case-insensitive substring of the name, email or visitor UID',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;
}

class PublicVisitorDto {
  @ApiProperty({ example: 12 }) id!: number;
  @ApiProperty({ format: 'uuid' }) visitor_uid!: string;
  @ApiProperty({ example: 3 }) site_id!: number;
  @ApiProperty({ type: String, nullable: true, example: 'Vera Visitor' }) name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'vera@example.com' }) email!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'DE' }) country!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'de' }) language!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
}

class PublicVisitorDetailDto extends PublicVisitorDto {
  @ApiProperty({ example: 2, description: 'Started conversations' }) conversations_count!: number;
  @ApiProperty({ example: 1 }) tickets_count!: number;
}

class VisitorPageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicVisitorDto] }) data!: PublicVisitorDto[];
}

/** Visitor get repeats the visitor's fields at the top level beside `data` (DESIGN section 3). */
class VisitorDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PublicVisitorDetailDto }) data!: PublicVisitorDetailDto;
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'uuid' }) visitor_uid!: string;
  @ApiProperty() site_id!: number;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ type: String, nullable: true }) country!: string | null;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
  @ApiProperty() conversations_count!: number;
  @ApiProperty() tickets_count!: number;
}

const toPublicVisitor = (visitor: VisitorRow): PublicVisitorDto => ({
  id: Number(visitor.id),
  visitor_uid: visitor.visitor_uid,
  site_id: Number(visitor.site_id),
  name: visitor.name,
  email: visitor.email,
  country: visitor.country,
  language: visitor.language,
  last_seen_at: visitor.last_seen_at ? new Date(visitor.last_seen_at).toISOString() : null,
});

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
