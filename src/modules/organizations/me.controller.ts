import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import { ABILITIES, type ApiKeyPrincipal } from '../../common/auth/auth.types';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import { OrganizationsService } from './organizations.service';
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

class MeDto extends EnvelopeDto {
  @ApiProperty({ type: MeOrganizationDto }) organization!: MeOrganizationDto;
  @ApiProperty({ type: MeApiKeyDto }) api_key!: MeApiKeyDto;
  @ApiProperty({ type: ApiInfoDto }) api!: ApiInfoDto;
}

@ApiTags('public: me')
@Controller('api/v1')
export class MeController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly config: AppConfig,
  ) {}

  @Get('me')
  @ApiKey()
  @ApiOperation({
    summary: 'The organization and key behind this request, and where the API lives',
  })
  @ApiOkResponse({ type: MeDto })
  async me(@CurrentApiKey() key: ApiKeyPrincipal) {
    const organization = await this.organizations.get(key.organizationId);
    const base = this.config.publicUrl;
    return {
      organization: {
        id: Number(organization.id),
        name: organization.name,
        plan: organization.plan,
      },
      api_key: {
        id: Number(key.id),
        name: key.name,
        key_prefix: key.keyPrefix,
        abilities: key.abilities,
        last_used_at: key.lastUsedAt ? new Date(key.lastUsedAt).toISOString() : null,
      },
      api: {
        version: 'v1',
        base_url: `${base}/api/v1`,
        docs_url: `${base}/api/docs`,
        openapi_url: `${base}/api/v1/openapi.json`,
        postman_url: `${base}/api/v1/postman.json`,
        rate_limit_per_minute: this.config.env.RATE_LIMIT_PER_MINUTE,
        supports_idempotency: true,
      },
    };
  }
}
