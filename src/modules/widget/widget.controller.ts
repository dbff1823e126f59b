import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CurrentVisitor,
  CurrentWidget,
  Widget,
  WidgetSession,
} from '../../common/auth/auth.decorators';
import type { VisitorPrincipal, WidgetPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { countryFrom } from '../visitors/visitor-country';
import {
  ConsentResponseDto,
  SessionEndedResponseDto,
  VisitorProfileResponseDto,
  WidgetEmailDto,
  WidgetInitDto,
  WidgetInitResponseDto,
  WidgetProfileDto,
} from './widget.dto';
import { WidgetService } from './widget.service';

/**
 * The widget session: init, the pre-chat profile, the notification address, consent and the
 * session's end. The chat's routes are WidgetChatController's (conversations), tickets'
 * WidgetTicketsController's (tickets), as the knowledge base has its WidgetKbController.
 */
@ApiTags('widget')
@Controller('api/widget')
export class WidgetController {
  constructor(
    private readonly widget: WidgetService,
    private readonly config: AppConfig,
  ) {}

  @Post('init')
  @HttpCode(200)
  @Widget()
  @ApiBearerAuth('widget_session')
  @ApiOperation({
    summary: 'Open or resume a visitor session',
    description:
      'Creates the visitor (or resumes it: by a session token of this site as `Authorization: Bearer`, else by `visitor_uid`; a UID of another site, or of a session ended with `POST /api/widget/session/end`, is 404), makes its open conversation, and returns a session token for later calls and the Socket.IO `/widget` namespace.',
  })
  @ApiOkResponse({ type: WidgetInitResponseDto })
  @ApiErrors(422)
  init(
    @CurrentWidget() widget: WidgetPrincipal,
    @Body() body: WidgetInitDto,
    @Req() request: Request,
  ) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    return this.widget.init(
      widget,
      body,
      countryFrom(request.headers, this.config.countryHeader),
      token,
      request.headers['user-agent'],
    );
  }

  @Post('profile')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({ summary: 'Submit the pre-chat form (built-in and custom fields)' })
  @ApiOkResponse({ type: VisitorProfileResponseDto })
  @ApiErrors(422)
  profile(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetProfileDto) {
    return this.widget.saveProfile(visitor, body);
  }

  @Post('email')
  @HttpCode(200)
  @WidgetSession()
  @ResponseMessage('We will answer you at this address.')
  @ApiOperation({
    summary: 'Get notified by email: the address to answer the visitor at',
    description:
      "Saved on the visitor: replies it does not see in the widget are mailed there (conversation mails turn on again if the visitor had unsubscribed). The pre-chat form's state is not changed.",
  })
  @ApiOkResponse({ type: VisitorProfileResponseDto })
  @ApiErrors(422)
  email(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetEmailDto) {
    return this.widget.saveEmail(visitor, body.email);
  }

  @Post('consent')
  @HttpCode(200)
  @WidgetSession()
  @ResponseMessage('Thank you.')
  @ApiOperation({
    summary: "Agree to the site's consent text before the first message",
    description:
      'Records when the visitor agreed (`widget_config.consent`); the first agreement is kept. Where the site asks for consent, `POST /api/widget/messages` and the socket refuse a message (422 on `consent`) until then.',
  })
  @ApiOkResponse({ type: ConsentResponseDto })
  async consent(@CurrentVisitor() visitor: VisitorPrincipal) {
    return { data: await this.widget.consent(visitor) };
  }

  @Post('session/end')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    summary: "End the visitor's session (the widget's shutdown, a shared computer)",
    description:
      "Logs the visitor out of its account login, and ends the session: every session token of the visitor, and its `visitor_uid` in init, stop working (401 and 404), and its sockets close. The visitor's conversations stay for the agents; the next init starts a new visitor.",
  })
  @ApiOkResponse({ type: SessionEndedResponseDto })
  async endSession(@CurrentVisitor() visitor: VisitorPrincipal) {
    await this.widget.endSession(visitor);
    return { data: { ended: true } };
  }
}
