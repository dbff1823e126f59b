import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import { toAgentDto } from '../agents/agents.dto';
import { AgentsService } from '../agents/agents.service';
import { SessionResponseDto } from './auth.dto';
import { AuthService } from './auth.service';
import { setSessionCookie } from './session-cookie';
import {
  ConfirmTwoFactorDto,
  DisableTwoFactorDto,
  FinishTwoFactorDto,
  RecoveryCodesResponseDto,
  TwoFactorSetupResponseDto,
  TwoFactorStatusResponseDto,
} from './two-factor.dto';
import { TwoFactorService } from './two-factor.service';

/** TOTP two-factor authentication (issue 28, DESIGN section 12). */
@ApiTags('agent: two-factor')
@Controller('api/agent')
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly agents: AgentsService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  @Get('me/two-factor')
  @Agent({ twoFactorSetup: true })
  @ApiOperation({ summary: 'Whether two-factor authentication is on, and recovery codes left' })
  @ApiOkResponse({ type: TwoFactorStatusResponseDto })
  async status(@CurrentAgent() agent: AgentPrincipal) {
    return { data: await this.twoFactor.status(agent) };
  }

  @Post('me/two-factor')
  @Agent({ twoFactorSetup: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start setting up two-factor authentication: a new secret and its otpauth:// URI',
    description:
      "It takes effect once a code made with it is confirmed. A session of single sign-on is refused (403): its second factor is the identity provider's.",
  })
  @ApiOkResponse({ type: TwoFactorSetupResponseDto })
  @ApiErrors(403, 409)
  @ResponseMessage('Scan the code with your authenticator app, then confirm a code.')
  async start(@CurrentAgent() agent: AgentPrincipal) {
    return { data: await this.twoFactor.start(agent) };
  }

  @Post('me/two-factor/confirm')
  @Agent({ twoFactorSetup: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn two-factor authentication on with a current code; answers 10 recovery codes',
    description:
      'The recovery codes are shown this once; each works once. A session of single sign-on is refused (403).',
  })
  @ApiOkResponse({ type: RecoveryCodesResponseDto })
  @ApiErrors(403, 409, 422, 429)
  @ResponseMessage('Two-factor authentication is on.')
  async confirm(@CurrentAgent() agent: AgentPrincipal, @Body() body: ConfirmTwoFactorDto) {
    return { data: { recovery_codes: await this.twoFactor.confirm(agent, body.code) } };
  }

  @Delete('me/two-factor')
  @Agent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor authentication off (the password and a current code)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(409, 422, 429)
  @ResponseMessage('Two-factor authentication is off.')
  async disable(@CurrentAgent() agent: AgentPrincipal, @Body() body: DisableTwoFactorDto) {
    await this.twoFactor.disable(agent, body.password, body.code);
    return {};
  }

  @Post('auth/two-factor')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish a login with the challenge and a current code or a recovery code',
    description:
      'A wrong code counts against the challenge (5 tries) and the account (10 per 15 minutes); a spent or expired challenge is a 401: log in again.',
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(401, 422, 429)
  @ResponseMessage('Logged in.')
  async finish(
    @Body() body: FinishTwoFactorDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const { token, userId, loginId } = await this.twoFactor.finish(body, request.ip ?? 'unknown');
    setSessionCookie(
      response,
      token,
      this.config.publicUrl.startsWith('https://'),
      this.auth.sessionDays,
    );
    const user = await this.agents.membershipOf(loginId, userId);
    if (!user) throw AppError.notFound();
    return { token, user: toAgentDto(user) };
  }
}
