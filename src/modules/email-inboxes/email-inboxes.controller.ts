import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  CreateEmailInboxDto,
  EmailInboxPageDto,
  EmailInboxResponseDto,
  toEmailInboxDto,
  UpdateEmailInboxDto,
} from './email-inboxes.dto';
import type { EmailInboxRow } from './email-inboxes.repository';
import { EmailInboxesService } from './email-inboxes.service';

type Link = { path: string; query: Record<string, unknown> };

/** Email inboxes (a channel): owners and admins only. */
@ApiTags('agent: email inboxes')
@Controller('api/agent/email-inboxes')
export class EmailInboxesController {
  constructor(
    private readonly inboxes: EmailInboxesService,
    private readonly config: AppConfig,
  ) {}

  private dto = (row: EmailInboxRow) => toEmailInboxDto(row, this.inboxes.forwardingAddress(row));

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Add an inbox; its new mail opens tickets (409 for an address in use)' })
  @ApiCreatedResponse({ type: EmailInboxResponseDto })
  @ApiErrors(409, 422)
  @ResponseMessage('Email inbox created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateEmailInboxDto) {
    return { data: this.dto(await this.inboxes.create(agent.organizationId, body)) };
  }

  @Get()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'List inboxes, newest first' })
  @ApiOkResponse({ type: EmailInboxPageDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.inboxes.page(agent.organizationId, page);
    return paginate(rows.map(this.dto), total, page, this.config.publicUrl, link);
  }

  @Get(':inbox')
  @Agent({ role: 'admin' })
  @ApiIdParam('inbox')
  @ApiOperation({ summary: 'Read an inbox' })
  @ApiOkResponse({ type: EmailInboxResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('inbox') id: string) {
    return { data: this.dto(await this.inboxes.get(agent.organizationId, id)) };
  }

  @Patch(':inbox')
  @Agent({ role: 'admin' })
  @ApiIdParam('inbox')
  @ApiOperation({ summary: 'Change the name, address, site, acknowledgement or IMAP mailbox' })
  @ApiOkResponse({ type: EmailInboxResponseDto })
  @ApiErrors(404, 409, 422)
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('inbox') id: string,
    @Body() body: UpdateEmailInboxDto,
  ) {
    return { data: this.dto(await this.inboxes.update(agent.organizationId, id, body)) };
  }

  @Delete(':inbox')
  @Agent({ role: 'admin' })
  @ApiIdParam('inbox')
  @ApiOperation({ summary: 'Delete an inbox (its tickets stay)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Email inbox deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('inbox') id: string) {
    await this.inboxes.remove(agent.organizationId, id);
    return {};
  }
}
