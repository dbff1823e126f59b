import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryBoolean } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { SiteRecord } from './site-record';

export class SiteQueryDto extends PageQueryDto {
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
  @ApiProperty({
    enum: ['not_started', 'queued', 'running', 'completed', 'failed', 'cancelled'],
    example: 'completed',
  })
  status!: string;
  @ApiProperty({ example: 0 }) progress!: number;
  @ApiProperty({ example: 'Not started' }) progress_label!: string;
  @ApiProperty({ type: ContentImportSummaryDto }) summary!: ContentImportSummaryDto;
}

export class PublicSiteDetailDto extends PublicSiteDto {
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ type: ContentImportDto }) content_import!: ContentImportDto;
}

export class SitePageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicSiteDto] }) data!: PublicSiteDto[];
}

/** Site get repeats the site's fields at the top level beside `data` (DESIGN section 3). */
export class SiteDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PublicSiteDetailDto }) data!: PublicSiteDetailDto;
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) domain!: string | null;
  @ApiProperty() is_active!: boolean;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: ContentImportDto }) content_import!: ContentImportDto;
}

export const toPublicSite = (site: SiteRecord): PublicSiteDto => ({
  id: Number(site.id),
  name: site.name,
  domain: site.domain,
  is_active: site.isActive,
});

/** The spec's four fields of an import's state (the agent API adds times and the error). */
export function publicImportState(state: ContentImportDto): ContentImportDto {
  const { status, progress, progress_label, summary } = state;
  return { status, progress, progress_label, summary };
}
