import { Controller, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import { Public } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { InboundResultResponseDto } from './inbound-mail.dto';
import { InboundMailService } from './inbound-mail.service';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The HTTP door for incoming mail: a forwarding MTA (README, "Receiving mail") or a mail
 * provider's inbound hook posts the raw RFC 822 message. Authenticated by INBOUND_EMAIL_TOKEN;
 * unset, the door does not exist (404).
 */
@ApiTags('inbound mail')
@Controller('api/inbound/email')
export class InboundEmailController {
  constructor(
    private readonly inbound: InboundMailService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiConsumes('message/rfc822')
  @ApiBody({ description: 'The raw mail (RFC 822)', schema: { type: 'string', format: 'binary' } })
  @ApiQuery({
    name: 'recipient',
    required: false,
    description: 'The envelope recipient, when the MTA knows it (Postfix: `${recipient}`)',
  })
  @ApiOperation({
    summary: 'Take one incoming mail (raw RFC 822); stored before it is parsed',
    description:
      'Answers what became of it: `processed` (added to its conversation), `duplicate` (that Message-ID was taken before) or `received` (stored; parsed again later). A mail that matches no reply address, or has no sender, is refused with a 422 (`error_code` `validation_failed`, field `recipient` or `mail`) after being stored; too large is a 413.',
  })
  @ApiOkResponse({ type: InboundResultResponseDto })
  @ApiErrors(401, 404, 413, 415, 422)
  async receive(
    @Req() request: Request,
    @Headers('authorization') authorization: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    @Query('recipient') recipient: unknown,
  ) {
    const token = this.config.env.INBOUND_EMAIL_TOKEN;
    if (!token) throw AppError.notFound();
    const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(token))) throw AppError.unauthenticated();
    if (!/^message\/rfc822\b/i.test(contentType ?? '')) {
      throw new AppError('unsupported_media_type', 'Send the raw mail as message/rfc822.', {
        reason: 'mail_not_rfc822',
      });
    }
    const raw = await readBody(request, this.config.env.INBOUND_MAIL_MAX_BYTES);
    const result = await this.inbound.accept(raw, {
      door: 'http',
      clientAddress: request.ip ?? null,
      // Unencoded in a query string, the `+` of `reply+<token>@...` arrives as a space.
      envelopeTo:
        typeof recipient === 'string' && recipient.length < 512
          ? [recipient.replace(/ /g, '+')]
          : [],
    });
    if (result.status === 'rejected') {
      throw result.outcome === 'unknown_recipient'
        ? AppError.invalid(
            'recipient',
            'No conversation or inbox matches this mail.',
            'mail_unmatched',
          )
        : AppError.invalid('mail', `The mail was refused: ${result.outcome}.`, 'mail_refused');
    }
    return {
      data: {
        id: Number(result.id),
        status: result.status,
        conversation_id:
          result.status === 'processed' && result.outcome === 'conversation_message'
            ? Number(result.conversationId)
            : null,
        ticket_id:
          result.status === 'processed' && result.outcome !== 'conversation_message'
            ? Number(result.ticketId)
            : null,
      },
    };
  }
}

/** The request body, at most `limit` bytes (a 413 past it, without reading the rest). */
async function readBody(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    throw new AppError('payload_too_large', 'The mail is too large.', { reason: 'mail_too_large' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      request.resume();
      throw new AppError('payload_too_large', 'The mail is too large.', {
        reason: 'mail_too_large',
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
