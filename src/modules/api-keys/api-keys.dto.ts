import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsString,
  MaxLength,
} from 'class-validator';
import { ABILITIES, type Ability } from '../../common/auth/auth.types';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { ApiKeyRow } from './api-keys.repository';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'CRM integration' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({ enum: ABILITIES, isArray: true, example: ['conversations:read', 'tickets:write'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(ABILITIES, { each: true, message: `each ability must be one of: ${ABILITIES.join(', ')}` })
  abilities!: Ability[];
}

export class ApiKeyDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'scs_live_a1B', description: 'The first 12 characters of the key' })
  key_prefix!: string;
  @ApiProperty({ enum: ABILITIES, isArray: true }) abilities!: Ability[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toApiKeyDto(key: ApiKeyRow): ApiKeyDto {
  return {
    id: Number(key.id),
    name: key.name,
    key_prefix: key.key_prefix,
    abilities: key.abilities,
    last_used_at: key.last_used_at ? new Date(key.last_used_at).toISOString() : null,
    created_at: new Date(key.created_at).toISOString(),
  };
}

export class ApiKeyListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [ApiKeyDto] }) data!: ApiKeyDto[];
}

export class ApiKeyCreatedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ApiKeyDto }) data!: ApiKeyDto;
  @ApiProperty({
    description: 'The full key; shown only in this response',
    example: 'scs_live_...',
  })
  plain_text_key!: string;
}
