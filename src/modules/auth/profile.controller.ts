import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Res,
  StreamableFile,
  UploadedFile as UploadedAvatar,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Agent, CurrentAgent, Public } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { randomBase62 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RawResponse, ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { UPLOAD_BODY } from '../attachments/attachments.dto';
import type { UploadedFile } from '../attachments/attachments.service';
import { ACCEPTED_TYPES, acceptedType, safeFileName } from '../attachments/file-types';
import { AttachmentUploadInterceptor } from '../attachments/upload.interceptor';
import { AgentResponseDto, toAgentDto } from '../agents/agents.dto';
import { AgentsService } from '../agents/agents.service';
import { UpdateProfileDto } from './profile.dto';
import { AuthService } from './auth.service';

/** Largest avatar accepted: a picture shown at 40 pixels needs no more. */
export const AVATAR_MAX_BYTES = 512 * 1024;
const AVATAR_TYPES = ACCEPTED_TYPES.filter((type) => type.contentType.startsWith('image/'));

/** A member's own profile: name, avatar and password (issue 28). */
@ApiTags('agent: profile')
@Controller('api')
export class ProfileController {
  constructor(
    private readonly agents: AgentsService,
    private readonly auth: AuthService,
  ) {}

  @Patch('agent/me')
  @Agent()
  @ApiOperation({
    summary: 'Change your own name, remove your avatar (`avatar: null`), or your password',
    description:
      'A new `password` needs `current_password`; every other session of the account then ends.',
  })
  @ApiOkResponse({ type: AgentResponseDto })
  @ApiErrors(422, 429)
  @ResponseMessage('Profile updated.')
  async update(@CurrentAgent() agent: AgentPrincipal, @Body() body: UpdateProfileDto) {
    if (body.password !== undefined) {
      if (!body.current_password)
        throw AppError.invalid(
          'current_password',
          'The current password is required to choose a new one.',
          'current_password_required',
        );
      await this.auth.changePassword(agent, body.current_password, body.password);
    }
    if (body.name !== undefined)
      await this.agents.rename(agent.organizationId, agent.userId, body.name.trim());
    if (body.avatar === null) await this.agents.setAvatar(agent.organizationId, agent.userId, null);
    return { data: toAgentDto(await this.agents.get(agent.organizationId, agent.userId)) };
  }

  @Post('agent/me/avatar')
  @Agent({ multipart: true })
  @HttpCode(200)
  @UseInterceptors(AttachmentUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOperation({
    summary: 'Upload your avatar: a PNG, JPEG, GIF or WebP image of at most 512 KiB',
    description: 'It replaces the one before; the team directory and the widget show it.',
  })
  @ApiOkResponse({ type: AgentResponseDto })
  @ApiErrors(413, 422)
  @ResponseMessage('Avatar updated.')
  async upload(@CurrentAgent() agent: AgentPrincipal, @UploadedAvatar() file?: UploadedFile) {
    if (!file || file.size === 0)
      throw AppError.invalid('file', 'The file field is required.', 'required');
    if (file.size > AVATAR_MAX_BYTES)
      throw new AppError('payload_too_large', 'The avatar is larger than the 512 KiB limit.', {
        reason: 'avatar_too_large',
      });
    const type = acceptedType(file.mimetype, safeFileName(file.originalname), file.buffer);
    if (!type || !AVATAR_TYPES.includes(type))
      throw AppError.invalid(
        'file',
        'The avatar must be a PNG, JPEG, GIF or WebP image.',
        'file_type_refused',
      );
    const user = await this.agents.setAvatar(agent.organizationId, agent.userId, {
      token: `av_${randomBase62(32)}`,
      contentType: type.contentType,
      data: file.buffer,
    });
    return { data: toAgentDto(user) };
  }

  @Delete('agent/me/avatar')
  @Agent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove your avatar' })
  @ApiOkResponse({ type: AgentResponseDto })
  @ResponseMessage('Avatar removed.')
  async removeAvatar(@CurrentAgent() agent: AgentPrincipal) {
    return {
      data: toAgentDto(await this.agents.setAvatar(agent.organizationId, agent.userId, null)),
    };
  }

  @Get('avatars/:token')
  @Public()
  @RawResponse()
  @ApiTags('attachments')
  @ApiParam({ name: 'token', description: 'The unguessable part of an `avatar_url`' })
  @ApiOperation({
    summary: "A member's avatar",
    description:
      'Needs no credentials (the address is unguessable and changes with each upload), so the widget can show it.',
  })
  @ApiResponse({
    status: 200,
    description: 'The image',
    content: Object.fromEntries(
      AVATAR_TYPES.map((type) => [
        type.contentType,
        { schema: { type: 'string', format: 'binary' } },
      ]),
    ),
  })
  @ApiErrors(404)
  async avatar(@Param('token') token: string, @Res({ passthrough: true }) response: Response) {
    const image = await this.agents.avatar(token);
    if (!image) throw AppError.notFound();
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    return new StreamableFile(image.data, {
      type: image.contentType,
      disposition: 'inline',
      length: image.data.length,
    });
  }
}
