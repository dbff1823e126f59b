import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { OrganizationRow } from './organizations.repository';
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
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ type: UpdateAutoAssignmentDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => UpdateAutoAssignmentDto)
  auto_assignment?: UpdateAutoAssignmentDto;
}

export class OrganizationSettingsDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'Acme Inc.' }) name!: string;
  @ApiProperty({ enum: PLANS }) plan!: string;
  @ApiProperty({ type: AutoAssignmentDto }) auto_assignment!: AutoAssignmentDto;
}

export function toOrganizationSettingsDto(row: OrganizationRow): OrganizationSettingsDto {
  return {
    id: Number(row.id),
    name: row.name,
    plan: row.plan,
    auto_assignment: {
      enabled: row.auto_assignment_enabled,
      capacity: row.auto_assignment_capacity,
    },
  };
}

export class OrganizationSettingsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: OrganizationSettingsDto }) data!: OrganizationSettingsDto;
}
