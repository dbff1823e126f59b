import { Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';
import { RawResponse, ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { ConversationMailService } from './conversation-mail.service';

/**
 * The List-Unsubscribe link of conversation mails (RFC 8058). POST (what a mail client's
 * one-click button sends) turns the visitor's conversation mails off; GET, what a person or a
 * link scanner opens, only shows a page with the button, so a prefetch changes nothing.
 */
@ApiTags('email')
@Controller('api/email/unsubscribe')
export class UnsubscribeController {
  constructor(private readonly conversationMail: ConversationMailService) {}

  @Post(':token')
  @Public()
  @HttpCode(200)
  @ApiParam({ name: 'token', description: 'From the mail’s List-Unsubscribe header' })
  @ApiOperation({ summary: 'Turn conversation mails off for the visitor the token was made for' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('You will no longer receive these mails.')
  async unsubscribe(@Param('token') token: string) {
    await this.conversationMail.unsubscribe(token);
    return {};
  }

  @Get(':token')
  @Public()
  @RawResponse()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiParam({ name: 'token', description: 'From the mail’s List-Unsubscribe header' })
  @ApiOperation({ summary: 'A page with the button that turns conversation mails off' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'An HTML page', schema: { type: 'string' } })
  page(): string {
    return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Unsubscribe</title></head><body style="font-family:sans-serif;max-width:480px;margin:48px auto">
<p>Stop receiving mails about your conversations?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>
</body></html>`;
  }
}
