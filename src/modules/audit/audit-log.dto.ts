import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsIdOr } from '../../common/http/id-param';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import type { AuditLogRow } from './audit-log.repository';

export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'system'] as const;

export class AuditLogQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', description: "The actor's id (a member or an API key)" })
  @IsOptional()
  @IsIdOr([], { message: 'The actor_id must be an id.' })
  actor_id?: string;

  @ApiPropertyOptional({ example: 'api_key.created' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^[a-z_]+(\.[a-z_]+)+$/, { message: 'The action must look like api_key.created.' })
  action?: string;

  @ApiPropertyOptional({ example: 'api_key' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^[a-z_]+$/, { message: 'The target_type must be a word like api_key.' })
  target_type?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'From this instant, inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The from must be an ISO 8601 date or date-time.' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Up to this instant, inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The to must be an ISO 8601 date or date-time.' })
  to?: string;

  @ApiPropertyOptional({
    enum: ['json', 'csv'],
    default: 'json',
    description: '`csv`: every matching row (up to 10 000, newest first) as a CSV attachment',
  })
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}

export class AuditActorDto {
  @ApiProperty({ enum: AUDIT_ACTOR_TYPES }) type!: (typeof AUDIT_ACTOR_TYPES)[number];
  @ApiProperty({ type: 'integer', nullable: true }) id!: number | null;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
}

export class AuditTargetDto {
  @ApiProperty({ example: 'api_key' }) type!: string;
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
  @ApiProperty({ type: String, nullable: true }) label!: string | null;
}

export class AuditEntryDto {
  @ApiProperty() id!: number;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ example: 'api_key.created' }) action!: string;
  @ApiProperty({ type: AuditTargetDto }) target!: AuditTargetDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`before` and `after` of the fields that changed; secrets read `[masked]`',
  })
  changes!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AuditLogListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [AuditEntryDto] }) data!: AuditEntryDto[];
}

export function toAuditEntryDto(row: AuditLogRow): AuditEntryDto {
  return {
    id: Number(row.id),
    actor: {
      type: row.actor_type,
      id: row.actor_id === null ? null : Number(row.actor_id),
      name: row.actor_name,
    },
    action: row.action,
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    changes: row.changes,
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}
