import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  Matches,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { MacroAction, MacroRow } from './macros.repository';

export const MACRO_ACTION_TYPES = [
  'reply',
  'add_labels',
  'assign',
  'unassign',
  'set_status',
  'close',
] as const;
export const MACRO_STATUSES = ['open', 'snoozed'] as const;

/** The longest snooze a macro may set: a year, as the snooze route allows. */
const MAX_SNOOZE_MINUTES = 366 * 24 * 60;

/**
 * One step. Which fields it needs depends on `type`: `reply` sends a canned response's body,
 * `add_labels` adds labels (keeping those the conversation has), `assign` gives it to a member
 * (`agent_id`; none: whoever runs the macro), `unassign` takes it from its holder, `set_status`
 * opens it (`open`: a closed one is reopened, a snoozed one woken) or snoozes it for
 * `snooze_minutes`, `close` closes it.
 */
export class MacroActionDto {
  @ApiProperty({ enum: MACRO_ACTION_TYPES })
  @IsIn(MACRO_ACTION_TYPES)
  type!: MacroAction['type'];

  @ApiPropertyOptional({ description: '`reply`: the canned response whose body is sent' })
  @ValidateIf((action: MacroActionDto) => action.type === 'reply')
  @IsInt()
  @Min(1)
  canned_response_id?: number;

  @ApiPropertyOptional({ type: [Number], description: '`add_labels`: the labels to add' })
  @ValidateIf((action: MacroActionDto) => action.type === 'add_labels')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(1, { each: true })
  label_ids?: number[];

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: '`assign`: the member to assign; absent or null: whoever runs the macro',
  })
  @ValidateIf(
    (action: MacroActionDto) =>
      action.type === 'assign' && action.agent_id !== undefined && action.agent_id !== null,
  )
  @IsInt()
  @Min(1)
  agent_id?: number | null;

  @ApiPropertyOptional({ enum: MACRO_STATUSES, description: '`set_status`: the status to set' })
  @ValidateIf((action: MacroActionDto) => action.type === 'set_status')
  @IsIn(MACRO_STATUSES)
  status?: (typeof MACRO_STATUSES)[number];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_SNOOZE_MINUTES,
    description: '`set_status` with `snoozed`: for how long',
  })
  @ValidateIf(
    (action: MacroActionDto) => action.type === 'set_status' && action.status === 'snoozed',
  )
  @IsInt()
  @Min(1)
  @Max(MAX_SNOOZE_MINUTES)
  snooze_minutes?: number;
}

export class CreateMacroDto {
  @ApiProperty({ example: 'Refund and close', maxLength: 100 })
  @IsString()
  @Matches(/\S/, { message: 'The name field must not be empty.' })
  @MaxLength(100)
  name!: string;

  @ApiProperty({ type: [MacroActionDto], description: 'Run in this order; 1 to 20 actions' })
  @IsArray()
  @ArrayMinSize(1, { message: 'A macro needs at least one action.' })
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => MacroActionDto)
  actions!: MacroActionDto[];
}

export class UpdateMacroDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'The name field must not be empty.' })
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ type: [MacroActionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'A macro needs at least one action.' })
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => MacroActionDto)
  actions?: MacroActionDto[];
}

export class RunMacroDto {
  @ApiProperty({ description: 'The conversation to run the macro on' })
  @IsInt()
  @Min(1)
  conversation_id!: number;
}

export class MacroQueryDto extends PageQueryDto {}

export class MacroActionResponseDto {
  @ApiProperty({ enum: MACRO_ACTION_TYPES }) type!: MacroAction['type'];
  @ApiPropertyOptional() canned_response_id?: number;
  @ApiPropertyOptional({ type: [Number] }) label_ids?: number[];
  @ApiPropertyOptional({ type: Number, nullable: true }) agent_id?: number | null;
  @ApiPropertyOptional({ enum: MACRO_STATUSES }) status?: (typeof MACRO_STATUSES)[number];
  @ApiPropertyOptional() snooze_minutes?: number;
}

export class MacroDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'Refund and close' }) name!: string;
  @ApiProperty({ type: [MacroActionResponseDto] }) actions!: MacroActionResponseDto[];
  @ApiProperty({ type: Number, nullable: true }) created_by_user_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export function toMacroDto(row: MacroRow): MacroDto {
  return {
    id: Number(row.id),
    name: row.name,
    actions: row.actions,
    created_by_user_id: row.created_by_user_id === null ? null : Number(row.created_by_user_id),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export class MacroListDto extends PageMetaDto {
  @ApiProperty({ type: [MacroDto], description: 'By name' })
  data!: MacroDto[];
}

export class MacroResponseDto extends EnvelopeDto {
  @ApiProperty({ type: MacroDto }) data!: MacroDto;
}

export class MacroRunDto {
  @ApiProperty() macro_id!: number;
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ description: 'How many actions ran (all of them: a run is all or nothing)' })
  actions_run!: number;
}

export class MacroRunResponseDto extends EnvelopeDto {
  @ApiProperty({ type: MacroRunDto }) data!: MacroRunDto;
}
