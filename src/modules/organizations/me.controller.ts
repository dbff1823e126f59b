import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import { type ApiKeyPrincipal } from '../../common/auth/auth.types';
import { AppConfig } from '../../config/app-config';
import { OrganizationsService } from './organizations.service';
import { MeDto } from './me.dto';

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
