import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { CannedResponseRow } from './canned-responses.repository';

/** A slug: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
const SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,49}$/;
const SHORTCUT_MESSAGE =
  'The shortcut may only contain lower-case letters, digits, dashes and underscores (at most 50).';

export class CannedResponseQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only shortcuts starting with this text', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  q?: string;
}

export class CreateCannedResponseDto {
  @ApiProperty({ example: 'refund', pattern: SHORTCUT.source })
  @IsString()
  @Matches(SHORTCUT, { message: SHORTCUT_MESSAGE })
  shortcut!: string;

  @ApiProperty({ example: 'Refunds reach your card within 5 working days.', maxLength: 5000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  body!: string;
}

export class UpdateCannedResponseDto {
  @ApiPropertyOptional({ example: 'refund', pattern: SHORTCUT.source })
  @IsOptional()
  @IsString()
  @Matches(SHORTCUT, { message: SHORTCUT_MESSAGE })
  shortcut?: string;

  @ApiPropertyOptional({ maxLength: 5000 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  body?: string;
}

export class CannedResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'refund' }) shortcut!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ type: Number, nullable: true }) created_by_user_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export function toCannedResponseDto(row: CannedResponseRow): CannedResponseDto {
  return {
    id: Number(row.id),
    shortcut: row.shortcut,
    body: row.body,
    created_by_user_id: row.created_by_user_id === null ? null : Number(row.created_by_user_id),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export class CannedResponseListDto extends PageMetaDto {
  @ApiProperty({ type: [CannedResponseDto], description: 'By shortcut' })
  data!: CannedResponseDto[];
}

export class CannedResponseResponseDto extends EnvelopeDto {
  @ApiProperty({ type: CannedResponseDto }) data!: CannedResponseDto;
}
