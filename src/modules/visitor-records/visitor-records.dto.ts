import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { WidgetVisitorBodyDto } from '../../common/dto/widget-visitor.dto';

/* What a logged-in visitor reads of the owner's records: the search, a rule's pages, row actions. */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class RecordFiltersDto {
  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) txn?: string;
  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) utr?: string;
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  status?: string;
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  mobile?: string;
  @ApiPropertyOptional({ example: '2026-01-31', description: 'First day, in the site time zone' })
  @IsOptional()
  @Matches(DAY, { message: 'date_from must be a date like 2026-01-31' })
  date_from?: string;
  @ApiPropertyOptional({ example: '2026-02-28', description: 'Last day, included' })
  @IsOptional()
  @Matches(DAY, { message: 'date_to must be a date like 2026-02-28' })
  date_to?: string;
}

export class RecordSearchDto extends WidgetVisitorBodyDto {
  @ApiPropertyOptional({ type: RecordFiltersDto, description: 'Only presets the site maps' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RecordFiltersDto)
  filters?: RecordFiltersDto;
}

export class RecordSearchResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'False when the visitor is not logged in' }) success!: boolean;
  @ApiProperty({
    description:
      'Markup with a `[[table]]{"columns":[...],"rows":[[...]]}[[/table]]` block, or the empty or login-required reply',
  })
  body!: string;
}

export class LookupPageDto extends WidgetVisitorBodyDto {
  @ApiProperty({ description: "The visitor's open conversation" })
  @IsInt()
  @Min(1)
  conversation_id!: number;

  @ApiProperty({ example: 'orders' }) @IsString() @IsNotEmpty() @MaxLength(64) rule_id!: string;

  @ApiProperty({ minimum: 1, maximum: 1000 }) @IsInt() @Min(1) @Max(1000) page!: number;

  @ApiPropertyOptional({ description: 'The message the rule answered (for the log)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  trigger_message?: number;
}

export class LookupPageResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'The page as a table block (with rule_id, page and has_more)' })
  reply_body!: string;
  @ApiProperty() page!: number;
  @ApiProperty() has_more!: boolean;
}

export class RowActionDto extends WidgetVisitorBodyDto {
  @ApiProperty() @IsInt() @Min(1) conversation_id!: number;
  @ApiProperty({ example: 'orders' }) @IsString() @IsNotEmpty() @MaxLength(64) rule_id!: string;
  @ApiProperty({ example: 'track' }) @IsString() @IsNotEmpty() @MaxLength(64) action_id!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { id: '42', status: 'shipped' },
    description:
      "The selected row; only its row key is used, the row is read again from the account's rows",
  })
  @IsObject()
  row!: Record<string, unknown>;
}

export class RowActionResponseDto extends EnvelopeDto {
  @ApiProperty({ example: 'Order 42 is shipped.' }) reply_body!: string;
}
