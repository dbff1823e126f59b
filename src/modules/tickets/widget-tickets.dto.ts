import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { CreateTicketDto, TicketListItemDto, toTicketListItem } from './tickets.dto';
import type { TicketRow } from './ticket-rows';

/* Tickets from the widget: the offline message, a ticket the visitor raises, the visitor's list. */

/** What a visitor leaves while no agent is online: it becomes a ticket (source widget). */
export class WidgetOfflineMessageDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 255, description: 'Where to answer' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ example: 'Do you ship to Norway?', maxLength: 5000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  message!: string;

  @ApiPropertyOptional({ example: 'Ada Lovelace', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

/**
 * A ticket the visitor raises from the widget. There is no priority: a visitor would mark every
 * request urgent, so agents triage (the ticket starts `normal`).
 */
export class WidgetCreateTicketDto extends PickType(CreateTicketDto, ['subject', 'description']) {
  @ApiPropertyOptional({
    maxLength: 255,
    example: 'Ada Lovelace',
    description: "Who to answer; default the visitor's name",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    example: 'ada@example.com',
    description: "Where to answer; default the visitor's email",
  })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  email?: string;
}

/** A ticket as the visitor who raised it sees it: no assignee, no internal fields. */
export class WidgetTicketDto extends TicketListItemDto {
  @ApiProperty() description!: string;
  @ApiProperty() visitor_id!: number;
  @ApiProperty({ type: String, nullable: true }) customer_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) customer_email!: string | null;
}

export class WidgetTicketResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetTicketDto }) data!: WidgetTicketDto;
}

export const toWidgetTicket = (ticket: TicketRow): WidgetTicketDto => ({
  ...toTicketListItem(ticket),
  description: ticket.description,
  visitor_id: Number(ticket.visitor_id),
  customer_name: ticket.customer_name,
  customer_email: ticket.customer_email,
});

/** A ticket subject from a free message: its first line, at most 80 characters. */
export function subjectOf(message: string): string {
  const line = message.trim().split(/\r?\n/)[0].replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79).trimEnd()}…` : line || 'Offline message';
}
