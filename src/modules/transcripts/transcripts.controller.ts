import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, WidgetSession } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { TranscriptQueuedResponseDto, TranscriptRequestDto } from './transcripts.dto';
import { TranscriptsService } from './transcripts.service';

@ApiTags('widget')
@Controller('api/widget')
export class TranscriptsController {
  constructor(private readonly transcripts: TranscriptsService) {}

  @Post('transcript')
  @HttpCode(202)
  @WidgetSession()
  @ResponseMessage('The transcript is on its way.')
  @ApiOperation({
    summary: 'Email the visitor its conversation',
    description:
      "Every message of the conversation (private notes never) in one mail in the visitor's language, answerable by mail, with a one-click unsubscribe. `email` is required when the visitor's email is not known (422). At most 3 an hour per visitor (429).",
  })
  @ApiAcceptedResponse({ type: TranscriptQueuedResponseDto })
  @ApiErrors(422)
  async request(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: TranscriptRequestDto) {
    const queued = await this.transcripts.request(visitor, {
      email: body.email,
      conversationId: body.conversation_id === undefined ? undefined : String(body.conversation_id),
    });
    return { data: queued };
  }
}
