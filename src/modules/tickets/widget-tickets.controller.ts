import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, WidgetSession } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { TicketsService } from './tickets.service';
import {
  subjectOf,
  toWidgetTicket,
  WidgetCreateTicketDto,
  WidgetOfflineMessageDto,
  WidgetTicketResponseDto,
} from './widget-tickets.dto';

/**
 * Tickets a visitor raises from the widget. The operation ids keep the names these routes had in
 * WidgetController, so OpenAPI and the clients are unchanged.
 */
@ApiTags('widget')
@Controller('api/widget')
export class WidgetTicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Post('tickets')
  @WidgetSession()
  @ResponseMessage('Ticket created.')
  @ApiOperation({
    operationId: 'Widget_ticket',
    summary: 'Raise a ticket from the widget (source widget, priority normal); needs ticketing',
    description:
      "Filed under the widget's site and linked to the visitor; `name` and `email` default to the visitor's. Emits `ticket.created`.",
  })
  @ApiCreatedResponse({ type: WidgetTicketResponseDto })
  @ApiErrors(422)
  async ticket(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: WidgetCreateTicketDto) {
    const ticket = await this.tickets.createFromWidget(visitor.organizationId, {
      siteId: visitor.siteId,
      visitorId: visitor.visitorId,
      subject: body.subject,
      description: body.description,
      customerName: body.name || undefined,
      customerEmail: body.email ?? undefined,
    });
    return { data: toWidgetTicket(ticket) };
  }

  @Post('offline-messages')
  @WidgetSession()
  @ResponseMessage('Message received. We will answer by email.')
  @ApiOperation({
    operationId: 'Widget_offlineMessage',
    summary: 'Leave a message as a ticket (the ticket form of offline mode); needs ticketing',
    description:
      "For sites whose `widget_config.offline.mode` is `ticket_form`, while nobody is there (accepted at any time; by default the widget keeps chatting instead). The message becomes a ticket (source `widget`, priority normal, subject from the message's first line) linked to the visitor, answered at `email`; emits `ticket.created`. Show the visitor its `ticket_number`.",
  })
  @ApiCreatedResponse({ type: WidgetTicketResponseDto })
  @ApiErrors(422)
  async offlineMessage(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Body() body: WidgetOfflineMessageDto,
  ) {
    const ticket = await this.tickets.createFromWidget(visitor.organizationId, {
      siteId: visitor.siteId,
      visitorId: visitor.visitorId,
      subject: subjectOf(body.message),
      description: body.message,
      customerName: body.name || undefined,
      customerEmail: body.email,
    });
    return { data: toWidgetTicket(ticket) };
  }
}
