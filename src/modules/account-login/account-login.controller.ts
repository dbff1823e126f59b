import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, Widget } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { WidgetVisitorBodyDto } from '../../common/dto/widget-visitor.dto';
import {
  AccountLoginBodyDto,
  AccountLoginResponseDto,
  AccountLogoutResponseDto,
  VerifyOtpDto,
  VerifyOtpResponseDto,
} from './account-login.dto';
import { AccountLoginService } from './account-login.service';

import { LOOKUP_GATES as GATES } from '../data-lookup/lookup-gates';

/** The widget side of visitor account login (the records it opens are VisitorRecordsController's). */
@ApiTags('widget')
@Controller('api/widget')
export class AccountLoginController {
  constructor(private readonly accountLogin: AccountLoginService) {}

  @Post('account-login')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    summary: "Log the visitor in to an account of the site owner's account table",
    description:
      'Matches `identifier` against the lookup columns. Without OTP a single match logs in (`success` false otherwise). With OTP a 6-digit code is mailed to the account and the answer is the same whether or not an account matched; at most 5 codes an hour per visitor, and OTP_MAIL_LIMIT_PER_HOUR per identifier and site (429).' +
      GATES,
  })
  @ApiOkResponse({ type: AccountLoginResponseDto })
  @ApiErrors(422, 429, 503)
  login(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: AccountLoginBodyDto) {
    return this.accountLogin.login(visitor, body.identifier);
  }

  @Post('account-login/verify-otp')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    summary: 'Verify the mailed code and log in',
    description:
      'The newest code only, within 10 minutes, once; 5 wrong tries burn it. A wrong, burned or expired code answers `success` false with a reply saying so.' +
      GATES,
  })
  @ApiOkResponse({ type: VerifyOtpResponseDto })
  @ApiErrors(422, 503)
  verify(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: VerifyOtpDto) {
    return this.accountLogin.verify(visitor, body.otp);
  }

  @Post('account-logout')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({ summary: 'Log the visitor out of the account (always allowed)' })
  @ApiOkResponse({ type: AccountLogoutResponseDto })
  @ApiErrors(422)
  logout(@CurrentVisitor() visitor: VisitorPrincipal, @Body() _body: WidgetVisitorBodyDto) {
    return this.accountLogin.logout(visitor);
  }
}
