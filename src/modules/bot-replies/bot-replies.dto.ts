import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { BotReplyRow } from './bot-replies.repository';

export class BotReplyQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1, description: 'Only the replies of this site' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional({ description: 'Words in the question or the answer', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class CreateBotReplyDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  site_id!: number;

  @ApiProperty({ example: 'Do you ship abroad?', maxLength: 300 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  question!: string;

  @ApiProperty({ example: 'Yes, to 40 countries.', maxLength: 4000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  answer!: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://acme.example/shipping' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true },
    { message: 'The source_url must be an http(s) address.' },
  )
  @MaxLength(2000)
  source_url?: string | null;
}

export class UpdateBotReplyDto {
  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  question?: string;

  @ApiPropertyOptional({ maxLength: 4000 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  answer?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true },
    { message: 'The source_url must be an http(s) address.' },
  )
  @MaxLength(2000)
  source_url?: string | null;
}

export class BotReplyDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty() question!: string;
  @ApiProperty() answer!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The page it was imported from' })
  source_url!: string | null;
  @ApiProperty({ description: 'Written or changed by an agent: a re-import leaves it alone' })
  edited_by_agent!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export function toBotReplyDto(row: BotReplyRow): BotReplyDto {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    question: row.question,
    answer: row.answer,
    enabled: row.enabled,
    source_url: row.source_url,
    edited_by_agent: row.edited_by_agent,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export class BotReplyListDto extends PageMetaDto {
  @ApiProperty({ type: [BotReplyDto], description: 'Newest first' }) data!: BotReplyDto[];
}

export class BotReplyResponseDto extends EnvelopeDto {
  @ApiProperty({ type: BotReplyDto }) data!: BotReplyDto;
}
