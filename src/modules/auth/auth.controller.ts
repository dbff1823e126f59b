import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import { toAgentDto } from '../agents/agents.dto';
import { AgentsService } from '../agents/agents.service';
import { toOrganizationDto } from '../organizations/organization.dto';
import { OrganizationsService } from '../organizations/organizations.service';
import { PlatformAdminsService } from '../platform/platform-admins.service';
import { toSiteDto } from '../sites/sites.dto';
import {
  LoginDto,
  ChangePasswordDto,
  LoginResponseDto,
  MeResponseDto,
  RegisterDto,
  RegisterResponseDto,
} from './auth.dto';
import { AuthService } from './auth.service';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

@ApiTags('agent: auth')
@Controller('api/agent')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly agents: AgentsService,
    private readonly organizations: OrganizationsService,
    private readonly platformAdmins: PlatformAdminsService,
    private readonly config: AppConfig,
  ) {}

  private get secureCookie(): boolean {
    return this.config.publicUrl.startsWith('https://');
  }

  @Post('auth/register')
  @Public()
  @ApiOperation({
    summary: 'Create an organization, its owner and a first site (while SIGNUP_ENABLED)',
  })
  @ApiCreatedResponse({ type: RegisterResponseDto })
  @ApiErrors(403, 422, 429)
  @ResponseMessage('Registered.')
  async register(
    @Body() body: RegisterDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const { token, user, organization, site } = await this.auth.register(
      body,
      request.ip ?? 'unknown',
    );
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    return {
      token,
      user: toAgentDto(user),
      organization: toOrganizationDto(organization),
      site: toSiteDto(site),
    };
  }

  @Post('auth/login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log in with email and password; returns a bearer token and sets the session cookie',
  })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiErrors(401, 422, 429)
  @ResponseMessage('Logged in.')
  async login(
    @Body() body: LoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const { token, user } = await this.auth.login(
      body.email,
      body.password,
      request.ip ?? 'unknown',
    );
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    return { token, user: toAgentDto(user) };
  }

  @Post('auth/logout')
  @Agent()
  @HttpCode(200)
  @ApiOperation({ summary: 'End this session (the token and the cookie stop working)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ResponseMessage('Logged out.')
  async logout(
    @CurrentAgent() agent: AgentPrincipal,
    @Res({ passthrough: true }) response: Response,
  ) {
    await this.auth.logout(agent);
    clearSessionCookie(response, this.secureCookie);
    return {};
  }

  @Post('auth/logout-all')
  @Agent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'End every session of this agent, this one included, and close all its sockets',
  })
  @ApiOkResponse({ type: EnvelopeDto })
  @ResponseMessage('Logged out everywhere.')
  async logoutAll(
    @CurrentAgent() agent: AgentPrincipal,
    @Res({ passthrough: true }) response: Response,
  ) {
    await this.auth.logoutEverywhere(agent);
    clearSessionCookie(response, this.secureCookie);
    return {};
  }

  @Post('auth/password')
  @Agent()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Change the password (the current one is required); every other session ends and its sockets close',
  })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(422, 429)
  @ResponseMessage('Password changed.')
  async changePassword(@CurrentAgent() agent: AgentPrincipal, @Body() body: ChangePasswordDto) {
    await this.auth.changePassword(agent, body.current_password, body.new_password);
    return {};
  }

  @Get('me')
  @Agent()
  @ApiOperation({ summary: 'The logged-in agent and its organization' })
  @ApiOkResponse({ type: MeResponseDto })
  async me(@CurrentAgent() agent: AgentPrincipal) {
    const [user, organization, platformAdmin] = await Promise.all([
      this.agents.get(agent.organizationId, agent.userId),
      this.organizations.get(agent.organizationId),
      this.platformAdmins.isAdmin(agent.userId),
    ]);
    return {
      user: toAgentDto(user),
      organization: toOrganizationDto(organization),
      platform_admin: platformAdmin,
    };
  }
}
