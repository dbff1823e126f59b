import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import { toAgentDto } from '../agents/agents.dto';
import { toOrganizationDto } from '../organizations/organization.dto';
import {
  AcceptInvitationDto,
  AcceptInvitationResponseDto,
  CreateInvitationDto,
  InvitationListResponseDto,
  InvitationResponseDto,
  PasswordResetConfirmDto,
  PasswordResetRequestDto,
  toInvitationDto,
  VerifyEmailDto,
} from './accounts.dto';
import { AccountsService } from './accounts.service';
import { AuthService } from './auth.service';
import { setSessionCookie } from './session-cookie';

type Link = { path: string; query: Record<string, unknown> };

/** Invitations, password reset and address verification (issue 28). */
@ApiTags('agent: accounts')
@Controller('api/agent')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  private get secureCookie(): boolean {
    return this.config.publicUrl.startsWith('https://');
  }

  @Post('team/invitations')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: 'Invite someone by email: a link valid 7 days, once',
    description:
      'The answer is the same whether or not the address has an account elsewhere. 403 until the inviting member confirmed their own address.',
  })
  @ApiCreatedResponse({ type: InvitationResponseDto })
  @ApiErrors(403, 422, 429)
  @ResponseMessage('Invitation sent.')
  async invite(@CurrentAgent() actor: AgentPrincipal, @Body() body: CreateInvitationDto) {
    return { data: toInvitationDto(await this.accounts.invite(actor, body)) };
  }

  @Get('team/invitations')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: 'The pending invitations (not accepted, revoked or expired), newest first',
  })
  @ApiOkResponse({ type: InvitationListResponseDto })
  @ApiErrors(422)
  async invitations(
    @CurrentAgent() actor: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.accounts.pendingInvitations(actor.organizationId, page);
    return paginate(rows.map(toInvitationDto), total, page, this.config.publicUrl, link);
  }

  @Delete('team/invitations/:invitation')
  @Agent({ role: 'admin' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a pending invitation: its link stops working' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Invitation revoked.')
  async revoke(@CurrentAgent() actor: AgentPrincipal, @IdParam('invitation') invitationId: string) {
    await this.accounts.revokeInvitation(actor.organizationId, invitationId);
    return {};
  }

  @Post('auth/accept-invite')
  @Public()
  @ApiOperation({
    summary: 'Accept an invitation: become a member and log in',
    description:
      'A newcomer chooses a password; an address that already has an account gives its own password and gains a membership.',
  })
  @ApiCreatedResponse({ type: AcceptInvitationResponseDto })
  @ApiErrors(409, 422, 429)
  @ResponseMessage('Invitation accepted.')
  async accept(
    @Body() body: AcceptInvitationDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const { token, user, organization } = await this.accounts.acceptInvitation(
      body,
      request.ip ?? 'unknown',
    );
    setSessionCookie(response, token, this.secureCookie, this.auth.sessionDays);
    return { token, user: toAgentDto(user), organization: toOrganizationDto(organization) };
  }

  @Post('auth/password-reset')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a password reset link (valid 1 hour, once)',
    description:
      'Always 202, the same answer at the same speed: the link is mailed only to an address that has an account.',
  })
  @ApiAcceptedResponse({ type: EnvelopeDto })
  @ApiErrors(422, 429)
  @ResponseMessage('If this address has an account, a link to reset its password is on its way.')
  async requestReset(@Body() body: PasswordResetRequestDto, @Req() request: Request) {
    await this.accounts.requestPasswordReset(body.email, request.ip ?? 'unknown');
    return {};
  }

  @Post('auth/password-reset/confirm')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: "Set a new password with a reset link's token; every session of the account ends",
  })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(422)
  @ResponseMessage('Your password was reset. Log in with the new one.')
  async confirmReset(@Body() body: PasswordResetConfirmDto) {
    await this.accounts.confirmPasswordReset(body.token, body.password);
    return {};
  }

  @Post('auth/verify-email')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: "Confirm an account's address with the mailed link's token" })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(422)
  @ResponseMessage('Your address is confirmed.')
  async verifyEmail(@Body() body: VerifyEmailDto) {
    await this.accounts.verifyEmail(body.token);
    return {};
  }

  @Post('me/email-verification')
  @Agent({ twoFactorSetup: true })
  @HttpCode(202)
  @ApiOperation({ summary: 'Mail the address confirmation link again' })
  @ApiAcceptedResponse({ type: EnvelopeDto })
  @ApiErrors(429)
  @ResponseMessage('A confirmation link is on its way.')
  async resendVerification(@CurrentAgent() agent: AgentPrincipal) {
    await this.accounts.sendVerification(agent.organizationId, agent.userId, agent.loginId);
    return {};
  }
}
