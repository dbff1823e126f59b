import {
  Controller,
  Get,
  Param,
  Post,
  Req,
  Res,
  StreamableFile,
  UploadedFile as File,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Agent,
  ApiKey,
  CurrentAgent,
  CurrentApiKey,
  CurrentVisitor,
  Public,
  WidgetSession,
} from '../../common/auth/auth.decorators';
import type {
  AgentPrincipal,
  ApiKeyPrincipal,
  VisitorPrincipal,
} from '../../common/auth/auth.types';
import { RawResponse, ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { AttachmentResponseDto, UPLOAD_BODY } from './attachments.dto';
import { AttachmentsService, type UploadedFile } from './attachments.service';
import { ACCEPTED_TYPES, contentDisposition } from './file-types';
import { AttachmentUploadInterceptor } from './upload.interceptor';

const LIMITS =
  "Up to ATTACHMENT_MAX_BYTES (default 10 MiB; larger is a 413). Accepted: PNG, JPEG, GIF and WebP images (checked against their leading bytes), PDF, Word, Excel, PowerPoint, OpenDocument, ZIP, plain text and CSV; anything else is a 422. The answer carries the attachment `id` to send in a message's `attachment_ids` (only the uploader may send it) and its download `url`.";

const STORAGE_QUOTA =
  'An organization stores at most STORAGE_QUOTA_MB_PER_ORG of attachments (413 past it).';

const uploaded = (data: unknown) => ({ data });

/** Uploads from the widget, the dashboard and integrations. */
@ApiTags('attachments')
@Controller('api')
export class AttachmentUploadsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @Post('widget/attachments')
  @WidgetSession()
  @UseInterceptors(AttachmentUploadInterceptor)
  @ResponseMessage('File uploaded.')
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOperation({
    summary: 'Upload a file the visitor then sends in a message',
    description: `Authenticated by the session token (\`Authorization: Bearer\`) only. ${LIMITS} A visitor holds at most VISITOR_UNSENT_UPLOADS_MAX unsent files (deleted after an hour) and uploads at most VISITOR_UPLOAD_MB_PER_HOUR, and ADDRESS_UPLOAD_MB_PER_HOUR from one client address (429 past them); an organization stores at most STORAGE_QUOTA_MB_PER_ORG (413).`,
  })
  @ApiCreatedResponse({ type: AttachmentResponseDto })
  @ApiErrors(413, 422, 429)
  async widget(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Req() request: Request,
    @File() file?: UploadedFile,
  ) {
    return uploaded(
      await this.attachments.upload(
        visitor.organizationId,
        { type: 'visitor', id: visitor.visitorId },
        file,
        request.ip ?? 'unknown',
      ),
    );
  }

  @Post('agent/attachments')
  @Agent({ multipart: true })
  @UseInterceptors(AttachmentUploadInterceptor)
  @ResponseMessage('File uploaded.')
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOperation({
    summary: 'Upload a file the agent then sends in a reply or note',
    description: `${LIMITS} ${STORAGE_QUOTA}`,
  })
  @ApiCreatedResponse({ type: AttachmentResponseDto })
  @ApiErrors(413, 422)
  async agent(@CurrentAgent() agent: AgentPrincipal, @File() file?: UploadedFile) {
    return uploaded(
      await this.attachments.upload(
        agent.organizationId,
        { type: 'agent', id: agent.userId },
        file,
      ),
    );
  }

  @Post('v1/attachments')
  @Idempotent()
  @ApiKey('conversations:write')
  @UseInterceptors(AttachmentUploadInterceptor)
  @ResponseMessage('File uploaded.')
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOperation({
    summary: 'Upload a file to send in a message of this API key',
    description: `${LIMITS} ${STORAGE_QUOTA} With \`Idempotency-Key\`, the same file again replays the first answer.`,
  })
  @ApiCreatedResponse({ type: AttachmentResponseDto })
  @ApiErrors(413, 422)
  async publicApi(@CurrentApiKey() key: ApiKeyPrincipal, @File() file?: UploadedFile) {
    return uploaded(
      await this.attachments.upload(key.organizationId, { type: 'api_key', id: key.id }, file),
    );
  }
}

const DOWNLOAD_HEADERS = {
  'Content-Disposition': {
    description: '`inline` for images, `attachment` for every other type, with the file name',
    schema: { type: 'string' },
  },
  'X-Content-Type-Options': { schema: { type: 'string', enum: ['nosniff'] } },
  'Content-Security-Policy': {
    description: 'Nothing in the file may run or load anything',
    schema: { type: 'string', example: "default-src 'none'; sandbox" },
  },
  'Cache-Control': { schema: { type: 'string', example: 'private, max-age=31536000, immutable' } },
  'Content-Length': { schema: { type: 'integer' } },
};

/** Downloads: the address is the credential, so `<img src>` works in the widget and dashboard. */
@ApiTags('attachments')
@Controller('api/attachments')
export class AttachmentDownloadsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @Get(':token')
  @Public()
  @RawResponse()
  @ApiParam({ name: 'token', description: 'The unguessable part of the attachment `url`' })
  @ApiOperation({
    summary: 'Download an attachment',
    description:
      'Needs no credentials: the address itself is unguessable. Served with its stored type, `nosniff`, a sandboxing Content-Security-Policy and a year of private caching.',
  })
  @ApiResponse({
    status: 200,
    description: 'The file',
    headers: DOWNLOAD_HEADERS,
    content: Object.fromEntries(
      ACCEPTED_TYPES.map((type) => [
        type.contentType,
        { schema: { type: 'string', format: 'binary' } },
      ]),
    ),
  })
  @ApiErrors(404)
  async download(@Param('token') token: string, @Res({ passthrough: true }) response: Response) {
    const file = await this.attachments.download(token);
    const inline = ACCEPTED_TYPES.some(
      (type) => type.contentType === file.content_type && type.inline,
    );
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    response.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    return new StreamableFile(file.data, {
      type: file.content_type.startsWith('text/')
        ? `${file.content_type}; charset=utf-8`
        : file.content_type,
      disposition: contentDisposition(file.file_name, inline),
      length: file.data.length,
    });
  }
}
