import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreateTicketDto,
  TicketCreatedResponseDto,
  TicketDetailResponseDto,
  TicketPageDto,
  TicketQueryDto,
  TicketStatusResponseDto,
  toTicketDetail,
  toTicketListItem,
  toTicketSummary,
  UpdateTicketStatusDto,
} from './tickets.dto';
import { TicketChangesService } from './ticket-changes.service';
import { TicketsService } from './tickets.service';

@ApiTags('public: tickets')
@Controller('api/v1/tickets')
export class PublicTicketsController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly changes: TicketChangesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('tickets:read')
  @ApiOperation({ summary: 'List tickets, newest first, optionally of one status and priority' })
  @ApiOkResponse({ type: TicketPageDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: TicketQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.tickets.page(
      key.organizationId,
      { status: query.status, priority: query.priority },
      page,
    );
    return paginate(rows.map(toTicketListItem), total, page, this.config.publicUrl, link);
  }

  @Get(':ticket')
  @ApiKey('tickets:read')
  @ApiIdParam('ticket')
  @ApiOperation({ summary: 'Read one ticket with its comments (oldest first)' })
  @ApiOkResponse({ type: TicketDetailResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('ticket') ticketId: string) {
    const { ticket, comments } = await this.tickets.detail(key.organizationId, ticketId);
    return { data: toTicketDetail(ticket, comments) };
  }

  @Post()
  @Idempotent()
  @ApiKey('tickets:write')
  @ApiOperation({
    summary: 'Open a ticket (source api, status open); needs ticketing on the plan',
  })
  @ApiCreatedResponse({ type: TicketCreatedResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Ticket created.')
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: CreateTicketDto) {
    const ticket = await this.tickets.create(key.organizationId, body, 'api', {
      type: 'api',
      userId: key.createdByUserId,
    });
    return { data: toTicketSummary(ticket) };
  }

  @Patch(':ticket/status')
  @Idempotent()
  @ApiKey('tickets:write')
  @ApiIdParam('ticket')
  @ApiOperation({
    summary: 'Set the ticket status (any of the five values); an unchanged status emits nothing',
  })
  @ApiOkResponse({ type: TicketStatusResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Ticket status updated.')
  async updateStatus(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('ticket') ticketId: string,
    @Body() body: UpdateTicketStatusDto,
  ) {
    const updated = await this.changes.updateStatus(key, ticketId, body);
    return { data: { id: Number(updated.id), status: updated.status } };
  }
}
