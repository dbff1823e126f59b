import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import {
  AgentCreateTicketDto,
  AgentTicketCommentResponseDto,
  AgentTicketPageDto,
  AgentTicketQueryDto,
  AgentTicketResponseDto,
  CreateTicketCommentDto,
  toAgentTicket,
  toAgentTicketComment,
  UpdateTicketDto,
} from './agent-tickets.dto';
import { toAgentTicketListItem } from './tickets.dto';
import { TicketChangesService } from './ticket-changes.service';
import { TicketsService } from './tickets.service';

/** The ticket desk of the agent dashboard; every role may use it. */
@ApiTags('agent: tickets')
@Agent()
@Controller('api/agent/tickets')
export class AgentTicketsController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly changes: TicketChangesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List tickets, newest first, optionally of one status, priority and assignee',
  })
  @ApiOkResponse({ type: AgentTicketPageDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AgentTicketQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.tickets.page(
      agent.organizationId,
      {
        status: query.status,
        priority: query.priority,
        assignedAgentId: query.assigned_agent_id,
        search: query.q,
      },
      page,
    );
    return paginate(rows.map(toAgentTicketListItem), total, page, this.config.publicUrl, link);
  }

  @Post()
  @ApiOperation({
    summary: 'Open a ticket (source dashboard, status open), optionally assigned; needs ticketing',
  })
  @ApiCreatedResponse({ type: AgentTicketResponseDto })
  @ApiErrors(403, 422)
  @ResponseMessage('Ticket created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: AgentCreateTicketDto) {
    const ticket = await this.tickets.create(agent.organizationId, body, 'dashboard');
    return { data: toAgentTicket(ticket, []) };
  }

  @Get(':ticket')
  @ApiIdParam('ticket')
  @ApiOperation({
    summary: 'Read one ticket with every comment, public and internal, oldest first',
  })
  @ApiOkResponse({ type: AgentTicketResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('ticket') ticketId: string) {
    const { ticket, comments } = await this.tickets.get(agent.organizationId, ticketId);
    return { data: toAgentTicket(ticket, comments) };
  }

  @Patch(':ticket')
  @ApiIdParam('ticket')
  @ApiOperation({
    summary:
      'Change the status, priority or assignee (null unassigns); only what changes is written and announced',
  })
  @ApiOkResponse({ type: AgentTicketResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Ticket updated.')
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('ticket') ticketId: string,
    @Body() body: UpdateTicketDto,
  ) {
    const { ticket, comments } = await this.changes.update(agent.organizationId, ticketId, body);
    return { data: toAgentTicket(ticket, comments) };
  }

  @Post(':ticket/comments')
  @ApiIdParam('ticket')
  @ApiOperation({ summary: 'Comment on a ticket as the agent, publicly or as an internal note' })
  @ApiCreatedResponse({ type: AgentTicketCommentResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Comment added.')
  async comment(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('ticket') ticketId: string,
    @Body() body: CreateTicketCommentDto,
  ) {
    return { data: toAgentTicketComment(await this.changes.addComment(agent, ticketId, body)) };
  }
}
