import { Controller, Get, Header, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
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
  page(@Param('token') token: string): string {
    // The button posts to the page twin of the one-click address, which answers a page too.
    const action = TOKEN.test(token) ? `/api/email/unsubscribe/${token}/confirm` : '';
    return htmlPage(
      'Unsubscribe',
      `<p>Stop receiving mails about your conversations?</p>
<form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Post(':token/confirm')
  @Public()
  @HttpCode(200)
  @RawResponse()
  @Header('Cache-Control', 'no-store')
  @ApiParam({ name: 'token', description: 'From the mail’s List-Unsubscribe header' })
  @ApiOperation({
    summary: 'The unsubscribe page’s button: turns conversation mails off and answers a page',
  })
  // The page only on success: the 404 stays the JSON envelope.
  @ApiOkResponse({
    description: 'An HTML page',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiErrors(404)
  async confirm(
    @Param('token') token: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    await this.conversationMail.unsubscribe(token);
    // HTML only once it worked: an unknown token is the JSON 404 of every other route.
    response.type('html');
    return htmlPage(
      'Unsubscribed',
      '<p>Done: you will no longer receive mails about your conversations.</p>',
    );
  }
}

/** The shape of an unsubscribe token (base32, 160 bits); anything else names nothing. */
const TOKEN = /^[a-z2-7]{32}$/;

function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title}</title></head><body style="font-family:sans-serif;max-width:480px;margin:48px auto">
${body}
</body></html>`;
}
