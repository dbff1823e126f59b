import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { LabelRow } from './labels.repository';

const COLOR = /^#[0-9a-fA-F]{6}$/;
const COLOR_MESSAGE = 'The color must be a hex color such as #1f6feb.';

export class CreateLabelDto {
  @ApiProperty({ example: 'billing', maxLength: 50 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  name!: string;

  @ApiProperty({ example: '#1f6feb', pattern: COLOR.source })
  @IsString()
  @Matches(COLOR, { message: COLOR_MESSAGE })
  color!: string;
}

export class UpdateLabelDto {
  @ApiPropertyOptional({ example: 'billing', maxLength: 50 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  name?: string;

  @ApiPropertyOptional({ example: '#1f6feb', pattern: COLOR.source })
  @IsOptional()
  @IsString()
  @Matches(COLOR, { message: COLOR_MESSAGE })
  color?: string;
}

export class SetConversationLabelsDto {
  @ApiProperty({ type: [Number], description: 'Every label the conversation is to carry' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(1, { each: true })
  label_ids!: number[];
}

export class LabelDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'billing' }) name!: string;
  @ApiProperty({ example: '#1f6feb' }) color!: string;
}

export function toLabelDto(row: LabelRow): LabelDto {
  return { id: Number(row.id), name: row.name, color: row.color };
}

export class LabelListDto extends PageMetaDto {
  @ApiProperty({ type: [LabelDto], description: 'By name' }) data!: LabelDto[];
}

export class LabelResponseDto extends EnvelopeDto {
  @ApiProperty({ type: LabelDto }) data!: LabelDto;
}

class ConversationLabelsDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ type: [LabelDto] }) labels!: LabelDto[];
}

export class ConversationLabelsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationLabelsDto }) data!: ConversationLabelsDto;
}
