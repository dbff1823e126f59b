import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { OrganizationRecord } from './organization-record';
import { PLANS } from './plans';

export class AutoAssignmentDto {
  @ApiProperty({ description: 'Assign new chats to online agents, round robin' })
  enabled!: boolean;
  @ApiProperty({ minimum: 1, maximum: 100, description: 'Open chats per agent at most' })
  capacity!: number;
}

export class UpdateAutoAssignmentDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 100 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  capacity?: number;
}

export class UpdateOrganizationDto {
  @ApiPropertyOptional({ example: 'Acme Inc.', maxLength: 100 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'The name field must not be empty.' })
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ type: UpdateAutoAssignmentDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => UpdateAutoAssignmentDto)
  auto_assignment?: UpdateAutoAssignmentDto;

  @ApiPropertyOptional({
    description:
      'Every member must use two-factor authentication: members without it are sent to set it up before anything else',
  })
  @IsOptional()
  @IsBoolean()
  require_two_factor?: boolean;
}

export class OrganizationSettingsDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'Acme Inc.' }) name!: string;
  @ApiProperty({ enum: PLANS }) plan!: string;
  @ApiProperty({ type: AutoAssignmentDto }) auto_assignment!: AutoAssignmentDto;
  @ApiProperty({ description: 'Every member must use two-factor authentication' })
  require_two_factor!: boolean;
}

export function toOrganizationSettingsDto(row: OrganizationRecord): OrganizationSettingsDto {
  return {
    id: Number(row.id),
    name: row.name,
    plan: row.plan,
    auto_assignment: {
      enabled: row.autoAssignmentEnabled,
      capacity: row.autoAssignmentCapacity,
    },
    require_two_factor: row.requireTwoFactor,
  };
}

export class OrganizationSettingsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: OrganizationSettingsDto }) data!: OrganizationSettingsDto;
}
