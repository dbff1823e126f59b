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
  LookupPageDto,
  LookupPageResponseDto,
  RecordSearchDto,
  RecordSearchResponseDto,
  RowActionDto,
  RowActionResponseDto,
  VerifyOtpDto,
  VerifyOtpResponseDto,
} from './account-login.dto';
import { AccountLoginService } from './account-login.service';
import { VisitorRecordsService } from './visitor-records.service';

const GATES =
  ' Needs the feature in the plan (403 `feature_not_in_plan`) and data lookup switched on for the site (403 `forbidden`); an owner database that cannot be reached or does not answer within 3 s is a 503 `service_unavailable`.';

/** The widget side of visitor account login and of the owner's records. */
@ApiTags('widget')
@Controller('api/widget')
export class AccountLoginController {
  constructor(
    private readonly accountLogin: AccountLoginService,
    private readonly records: VisitorRecordsService,
  ) {}

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

  @Post('filter-records/search')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    summary: "Search the logged-in visitor's records",
    description:
      "Only rows of the visitor's account; presets the site does not map are a 422. Not logged in: `success` false and the login-required reply; nothing found: the empty reply." +
      GATES,
  })
  @ApiOkResponse({ type: RecordSearchResponseDto })
  @ApiErrors(422, 503)
  search(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: RecordSearchDto) {
    return this.records.search(visitor, body.filters);
  }

  @Post('data-lookup/paginate')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    summary: "A later page of a keyword rule's answer",
    description:
      "In the visitor's open conversation (404 when not the visitor's, 409 once closed); an unknown rule is a 422." +
      GATES,
  })
  @ApiOkResponse({ type: LookupPageResponseDto })
  @ApiErrors(409, 422, 503)
  paginate(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: LookupPageDto) {
    return this.records.page(visitor, {
      conversationId: String(body.conversation_id),
      ruleId: body.rule_id,
      page: body.page,
      triggerMessage: body.trigger_message,
    });
  }

  @Post('data-lookup/row-action')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    summary: "Run a rule's action on one of the visitor's rows",
    description:
      "The row is read again by its row key among the account's rows (404 when it is not one of them); the reply's `{{column}}` placeholders take its values, HTML-escaped." +
      GATES,
  })
  @ApiOkResponse({ type: RowActionResponseDto })
  @ApiErrors(409, 422, 503)
  rowAction(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: RowActionDto) {
    return this.records.rowAction(visitor, {
      conversationId: String(body.conversation_id),
      ruleId: body.rule_id,
      actionId: body.action_id,
      row: body.row,
    });
  }
}
