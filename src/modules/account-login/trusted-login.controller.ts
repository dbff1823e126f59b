import { Body, Controller, Get, Headers, HttpCode, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  TrustedLoginDto,
  TrustedLoginResponseDto,
  TrustedLoginSecretResponseDto,
  TrustedLoginStatusResponseDto,
  UpdateTrustedLoginDto,
} from './account-login.dto';
import { TrustedLoginService } from './trusted-login.service';

/** The trusted-login secret and switch: owners and admins. */
@ApiTags('agent: trusted login')
@Agent({ role: 'admin' })
@Controller('api/agent/visitor-trusted-login')
export class TrustedLoginSettingsController {
  constructor(private readonly trusted: TrustedLoginService) {}

  @Get()
  @ApiOperation({ summary: 'Trusted visitor login: switch, secret prefix, header and endpoint' })
  @ApiOkResponse({ type: TrustedLoginStatusResponseDto })
  async status(@CurrentAgent() agent: AgentPrincipal) {
    return { trusted_login: await this.trusted.status(agent.organizationId) };
  }

  @Post('secret')
  @ApiOperation({
    summary: 'Generate or rotate the secret (shown once; the old one stops working at once)',
  })
  @ApiCreatedResponse({ type: TrustedLoginSecretResponseDto })
  @ResponseMessage('Trusted login secret generated.')
  rotate(@CurrentAgent() agent: AgentPrincipal) {
    return this.trusted.rotate(agent.organizationId);
  }

  @Patch()
  @ApiOperation({ summary: 'Switch trusted login on or off (on needs a secret: 422)' })
  @ApiOkResponse({ type: TrustedLoginStatusResponseDto })
  @ApiErrors(422)
  async update(@CurrentAgent() agent: AgentPrincipal, @Body() body: UpdateTrustedLoginDto) {
    return { trusted_login: await this.trusted.setEnabled(agent.organizationId, body.enabled) };
  }
}

/** The site owner's backend logs a visitor in with the organization's secret. */
@ApiTags('trusted login')
@Controller('api/visitor-account-login')
export class TrustedLoginController {
  constructor(private readonly trusted: TrustedLoginService) {}

  @Post('trusted')
  @HttpCode(200)
  @Public()
  // The widget key travels in the body; the secret comes in its own header or as a bearer token.
  @ApiSecurity({ widget_key: [], trusted_login_secret: [] })
  @ApiSecurity({ widget_key: [], trusted_login_bearer: [] })
  @ApiOperation({
    summary: "Log a visitor in by email from the site owner's backend, without a code",
    description:
      'Needs the secret (401), trusted login in the plan and enabled (403), and visitor account login and data lookup switched on for the site (403). An unknown widget key or visitor is a 404; no single account with the email answers `success` false. Past TRUSTED_LOGIN_LIMIT_PER_MINUTE calls with the right secret per organization, 429.',
  })
  @ApiOkResponse({ type: TrustedLoginResponseDto })
  @ApiErrors(401, 402, 403, 404, 422, 429, 503)
  login(
    @Headers('x-service-visitor-login-secret') header: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: TrustedLoginDto,
  ) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    return this.trusted.login(header?.trim() || bearer, body);
  }
}
