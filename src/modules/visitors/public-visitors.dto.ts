import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { VisitorRow } from './visitors.repository';

export class VisitorQueryDto extends PageQueryDto {
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

export class PublicVisitorDetailDto extends PublicVisitorDto {
  @ApiProperty({ example: 2, description: 'Started conversations' }) conversations_count!: number;
  @ApiProperty({ example: 1 }) tickets_count!: number;
}

export class VisitorPageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicVisitorDto] }) data!: PublicVisitorDto[];
}

/** Visitor get repeats the visitor's fields at the top level beside `data` (DESIGN section 3). */
export class VisitorDetailResponseDto extends EnvelopeDto {
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

export const toPublicVisitor = (visitor: VisitorRow): PublicVisitorDto => ({
  id: Number(visitor.id),
  visitor_uid: visitor.visitor_uid,
  site_id: Number(visitor.site_id),
  name: visitor.name,
  email: visitor.email,
  country: visitor.country,
  language: visitor.language,
  last_seen_at: visitor.last_seen_at ? new Date(visitor.last_seen_at).toISOString() : null,
});
