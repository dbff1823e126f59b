import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import {
  MailLogEntryResponseDto,
  MailLogPageDto,
  SendTestMailDto,
  toMailLogEntryDto,
} from './mail.dto';
import { MailService } from './mail.service';

type Link = { path: string; query: Record<string, unknown> };

/** The organization's outgoing mail log (Settings): owners and admins only. */
@ApiTags('agent: mail')
@Controller('api/agent/mail-log')
export class MailLogController {
  constructor(
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'List the mails sent, queued or failed, newest first' })
  @ApiOkResponse({ type: MailLogPageDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.mail.page(agent.organizationId, page);
    return paginate(rows.map(toMailLogEntryDto), total, page, this.config.publicUrl, link);
  }

  @Post('test')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary: 'Queue a test mail to yourself; the mail log shows whether it was sent',
  })
  @ApiCreatedResponse({ type: MailLogEntryResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Test mail queued.')
  async test(@CurrentAgent() agent: AgentPrincipal, @Body() body: SendTestMailDto) {
    const { id } = await this.mail.sendTest(
      agent.organizationId,
      agent.userId,
      body.site_id === undefined ? null : String(body.site_id),
    );
    return { data: toMailLogEntryDto(await this.mail.entry(agent.organizationId, id)) };
  }
}
