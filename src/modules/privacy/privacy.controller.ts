import { Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { VisitorErasedResponseDto, VisitorExportResponseDto } from './privacy.dto';
import { PrivacyService } from './privacy.service';

@ApiTags('agent: privacy')
@Agent({ role: 'admin' })
@Controller('api/agent/visitors')
export class PrivacyController {
  constructor(private readonly privacy: PrivacyService) {}

  @Get(':visitor/export')
  @ApiIdParam('visitor')
  @ApiOperation({
    summary: 'Everything held about a visitor, as JSON (owner or admin; audited)',
    description:
      'Profile, custom fields, consent, conversations with their messages (private notes included) and attachment addresses, tickets and appointments.',
  })
  @ApiOkResponse({ type: VisitorExportResponseDto })
  @ApiErrors(404)
  async export(@CurrentAgent() agent: AgentPrincipal, @IdParam('visitor') visitorId: string) {
    return { data: await this.privacy.export(agent.organizationId, visitorId) };
  }

  @Delete(':visitor')
  @HttpCode(200)
  @ApiIdParam('visitor')
  @ApiOperation({
    summary: 'Erase a visitor (owner or admin): profile, conversations, messages, files',
    description:
      "In one transaction: the profile and custom fields, every message and attachment of the visitor's conversations, its tickets' customer details and its appointments' visitor details. The conversation rows stay without content (the report figures keep their counts), a live chat is closed and its widget told and disconnected. Audited without the erased data; webhook event `visitor.erased`.",
  })
  @ApiOkResponse({ type: VisitorErasedResponseDto })
  @ApiErrors(404)
  @ResponseMessage('Visitor erased.')
  async erase(@CurrentAgent() agent: AgentPrincipal, @IdParam('visitor') visitorId: string) {
    return { data: await this.privacy.erase(agent.organizationId, visitorId) };
  }
}
