import { Body, Controller, Get, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { AuthService } from './auth.service';
import { setSessionCookie } from './session-cookie';
import { SsoSettingsResponseDto, SsoStartQueryDto, UpdateSsoSettingsDto } from './sso.dto';
import { SSO_ATTEMPT_SECONDS, SsoService, ssoFailureReason } from './sso.service';

/** Binds a sign-in to the browser that started it (Lax: it comes back from the provider). */
const SSO_COOKIE = 'scs_sso';
const SSO_COOKIE_PATH = '/api/agent/auth/sso';

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const REDIRECT = {
  status: 302,
  description: 'Redirect (`Location`)',
  headers: { Location: { schema: { type: 'string' } } },
};

@ApiTags('agent: auth')
@Controller('api/agent')
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  private get secureCookie(): boolean {
    return this.config.publicUrl.startsWith('https://');
  }

  /**
   * A sign-in in the browser that failed goes back to the dashboard's login page, which says why
   * in words (`sso_error`) and offers the organization again; never a JSON body in the browser.
   */
  private toLogin(response: Response, error: unknown, organization?: string): void {
    const query = new URLSearchParams({ sso_error: ssoFailureReason(error) });
    if (organization && /^\d{1,18}$/.test(organization)) query.set('organization', organization);
    response.redirect(302, `${this.config.publicUrl}/login?${query.toString()}`);
  }

  @Get('sso')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: "The organization's single sign-on (OpenID Connect) settings (owner only)",
    description: 'The client secret is always masked. `configured` is false until it is set up.',
  })
  @ApiOkResponse({ type: SsoSettingsResponseDto })
  async get(@CurrentAgent() agent: AgentPrincipal) {
    return { data: await this.sso.get(agent) };
  }

  @Put('sso')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: 'Set up or change single sign-on (owner only)',
    description:
      "The issuer's discovery document is read first, under the address policy (a 422 on `issuer` when it is refused or unreadable). Audited as `sso.updated`, the secret masked.",
  })
  @ApiOkResponse({ type: SsoSettingsResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Single sign-on saved.')
  async update(@CurrentAgent() agent: AgentPrincipal, @Body() body: UpdateSsoSettingsDto) {
    return { data: await this.sso.update(agent, body) };
  }

  @Get('auth/sso/start')
  @Public()
  @ApiOperation({
    summary: "Start signing in with the organization's identity provider (a browser navigation)",
    description:
      "Redirects to the provider (authorization code with PKCE, `state` and `nonce` kept server-side for 10 minutes, bound to this browser by an HttpOnly cookie). When the organization has no single sign-on, or its provider cannot be reached, redirects to the dashboard's login page instead, with `sso_error` (`not_configured`, `unavailable`) and `organization`.",
  })
  @ApiResponse(REDIRECT)
  @ApiErrors(422)
  async start(@Query() query: SsoStartQueryDto, @Res() response: Response) {
    let started: { url: string; browser: string };
    try {
      started = await this.sso.start(query.organization);
    } catch (error) {
      return this.toLogin(response, error, query.organization);
    }
    const { url, browser } = started;
    response.cookie(SSO_COOKIE, browser, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookie,
      path: SSO_COOKIE_PATH,
      maxAge: SSO_ATTEMPT_SECONDS * 1000,
    });
    response.redirect(302, url);
  }

  @Get('auth/sso/callback')
  @Public()
  @ApiOperation({
    summary:
      'Where the identity provider sends the browser back: logs in and redirects to the dashboard',
    description:
      "Sets the same session cookie as the password login (its value is the session token) and redirects to the dashboard; no token travels in a URL. A failed sign-in redirects to the dashboard's login page with `sso_error`, which the page explains: `expired` (an unknown, expired, reused or foreign `state`), `refused` (the provider answered with an error), `unverified` (the code or ID token does not verify: signature, audience, nonce), `no_email` (no confirmed address), `not_allowed` (not a member, and the domain may not join), `unavailable` (the provider cannot be reached), `failed` (anything else).",
  })
  @ApiResponse(REDIRECT)
  async callback(@Req() request: Request, @Res() response: Response) {
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.query))
      if (typeof value === 'string') params[key] = value;
    const browser = readCookie(request, SSO_COOKIE);
    // The attempt is used up whatever comes of it.
    response.clearCookie(SSO_COOKIE, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookie,
      path: SSO_COOKIE_PATH,
    });
    let token: string;
    try {
      ({ token } = await this.sso.callback(params, browser));
    } catch (error) {
      return this.toLogin(response, error);
    }
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    response.redirect(302, `${this.config.publicUrl}/`);
  }
}
