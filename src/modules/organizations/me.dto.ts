import { ApiProperty } from '@nestjs/swagger';
import { ABILITIES } from '../../common/auth/auth.types';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { PLANS } from './plans';

class MeOrganizationDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'Acme Inc.' }) name!: string;
  @ApiProperty({ enum: PLANS }) plan!: string;
}

class MeApiKeyDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'scs_live_a1B' }) key_prefix!: string;
  @ApiProperty({ enum: ABILITIES, isArray: true }) abilities!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
}

class ApiInfoDto {
  @ApiProperty({ example: 'v1' }) version!: string;
  @ApiProperty({ example: 'https://chat.example.com/api/v1' }) base_url!: string;
  @ApiProperty({ example: 'https://chat.example.com/api/docs' }) docs_url!: string;
  @ApiProperty({ example: 'https://chat.example.com/api/v1/openapi.json' }) openapi_url!: string;
  @ApiProperty({ example: 'https://chat.example.com/api/v1/postman.json' }) postman_url!: string;
  @ApiProperty({ example: 120 }) rate_limit_per_minute!: number;
  @ApiProperty({ example: true }) supports_idempotency!: boolean;
}

export class MeDto extends EnvelopeDto {
  @ApiProperty({ type: MeOrganizationDto }) organization!: MeOrganizationDto;
  @ApiProperty({ type: MeApiKeyDto }) api_key!: MeApiKeyDto;
  @ApiProperty({ type: ApiInfoDto }) api!: ApiInfoDto;
}
