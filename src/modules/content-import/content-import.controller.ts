import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { ContentImportResponseDto, StartContentImportDto } from './content-import.dto';
import { toContentImportState } from '../sites/content-import-state';
import { ContentImportService } from './content-import.service';

/** A site's content import: every member follows it; owners and admins start and cancel it. */
@ApiTags('agent: content import')
@Controller('api/agent/sites/:site/content-import')
export class ContentImportController {
  constructor(private readonly imports: ContentImportService) {}

  @Get()
  @Agent()
  @ApiIdParam('site')
  @ApiOperation({ summary: "The site's content import: status, progress and what it found" })
  @ApiOkResponse({ type: ContentImportResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    return { data: toContentImportState(await this.imports.state(agent.organizationId, siteId)) };
  }

  @Post()
  @HttpCode(202)
  @Agent({ role: 'admin' })
  @ApiIdParam('site')
  @ApiOperation({
    summary: "Read the site's pages into draft articles and bot replies (one import at a time)",
  })
  @ApiAcceptedResponse({ type: ContentImportResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Content import started.')
  async start(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('site') siteId: string,
    @Body() body: StartContentImportDto,
  ) {
    const row = await this.imports.start(agent.organizationId, siteId, agent.userId, body);
    return { data: toContentImportState(row) };
  }

  @Delete()
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('site')
  @ApiOperation({ summary: 'Cancel the running import (what it stored stays)' })
  @ApiOkResponse({ type: ContentImportResponseDto })
  @ApiErrors(404, 409)
  @ResponseMessage('Content import cancelled.')
  async cancel(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    return { data: toContentImportState(await this.imports.cancel(agent.organizationId, siteId)) };
  }
}
