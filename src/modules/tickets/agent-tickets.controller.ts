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
  CustomerHistoryResponseDto,
  toCustomerHistory,
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
        conversationId: query.conversation_id,
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
    const actor = { type: 'agent' as const, userId: agent.userId };
    const ticket = await this.tickets.create(agent.organizationId, body, 'dashboard', actor);
    const { comments, activity } = await this.tickets.detail(agent.organizationId, ticket.id);
    return { data: toAgentTicket(ticket, comments, activity) };
  }

  @Get(':ticket')
  @ApiIdParam('ticket')
  @ApiOperation({
    summary: 'Read one ticket with every comment, public and internal, oldest first',
  })
  @ApiOkResponse({ type: AgentTicketResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('ticket') ticketId: string) {
    const { ticket, comments, activity } = await this.tickets.detail(
      agent.organizationId,
      ticketId,
    );
    return { data: toAgentTicket(ticket, comments, activity) };
  }

  @Get(':ticket/customer')
  @ApiIdParam('ticket')
  @ApiOperation({
    summary: "The ticket's customer elsewhere: their other tickets and their chats",
    description:
      "Found by the ticket's visitor and by its address (the ticket's customer address, else its " +
      "visitor's), regardless of case: a ticket filed by mail meets the chats of the visitor who " +
      'gave that address. Newest first, at most 50 of each.',
  })
  @ApiOkResponse({ type: CustomerHistoryResponseDto })
  @ApiErrors(404)
  async customer(@CurrentAgent() agent: AgentPrincipal, @IdParam('ticket') ticketId: string) {
    return {
      data: toCustomerHistory(await this.tickets.customerHistory(agent.organizationId, ticketId)),
    };
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
    const { ticket, comments, activity } = await this.changes.update(agent, ticketId, body);
    return { data: toAgentTicket(ticket, comments, activity) };
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
