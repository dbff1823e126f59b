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
  SwitchOrganizationDto,
  SwitchOrganizationResponseDto,
} from './auth.dto';
import { AccountsService } from './accounts.service';
import { AuthService } from './auth.service';
import { TwoFactorService } from './two-factor.service';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

@ApiTags('agent: auth')
@Controller('api/agent')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
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
    // The address check is mailed; a mail that cannot be queued now can be asked for again.
    await this.accounts
      .sendVerification(organization.id, user.id, user.loginId)
      .catch(() => undefined);
    return {
      token,
      user: toAgentDto(user),
      organization: toOrganizationDto(organization),
      site: toSiteDto(site, this.config.publicUrl),
    };
  }

  @Post('auth/login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log in with email and password; returns a bearer token and sets the session cookie',
    description:
      'With two-factor authentication on, the answer is instead `two_factor_required: true` and a short-lived `challenge` for `POST /api/agent/auth/two-factor` (no token, no cookie). 403 when every organization of the login enforces single sign-on and it is no owner there.',
  })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiErrors(401, 403, 422, 429)
  @ResponseMessage('Logged in.')
  async login(
    @Body() body: LoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const result = await this.auth.login(body.email, body.password, request.ip ?? 'unknown');
    if ('twoFactor' in result) {
      const step = await this.twoFactor.challenge(result.user.loginId, result.user.id);
      return { two_factor_required: true, ...step };
    }
    const { token, user } = result;
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    return { token, user: toAgentDto(user) };
  }

  @Post('auth/logout')
  @Agent({ twoFactorSetup: true })
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
  @Agent({ twoFactorSetup: true })
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
  @Agent({ twoFactorSetup: true })
  @ApiOperation({ summary: 'The logged-in agent and its organization' })
  @ApiOkResponse({ type: MeResponseDto })
  async me(@CurrentAgent() agent: AgentPrincipal) {
    const [user, organization, platformAdmin, memberships, login] = await Promise.all([
      this.agents.get(agent.organizationId, agent.userId),
      this.organizations.get(agent.organizationId),
      this.platformAdmins.isAdmin(agent.userId),
      this.agents.memberships(agent.loginId),
      this.agents.getLogin(agent.loginId),
    ]);
    return {
      user: toAgentDto(user),
      email_verified: Boolean(login?.emailVerifiedAt),
      two_factor_setup_required: agent.twoFactorMissing === true,
      organization: toOrganizationDto(organization),
      organizations: memberships
        .map((m) => ({ id: Number(m.organizationId), name: m.organizationName, role: m.role }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
      platform_admin: platformAdmin,
    };
  }

  @Post('auth/switch-organization')
  @Agent({ twoFactorSetup: true })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Continue in another organization of this login: a new session for that membership; this one ends',
  })
  @ApiOkResponse({ type: SwitchOrganizationResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Organization switched.')
  async switchOrganization(
    @CurrentAgent() agent: AgentPrincipal,
    @Body() body: SwitchOrganizationDto,
    @Res({ passthrough: true }) response: Response,
  ) {
    const { token, user } = await this.auth.switchOrganization(agent, String(body.organization_id));
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    const organization = await this.organizations.get(user.organizationId);
    return { token, user: toAgentDto(user), organization: toOrganizationDto(organization) };
  }
}
