import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import {
  TICKET_PRIORITIES,
  TICKET_SOURCES,
  TICKET_STATUSES,
  type TicketCommentRow,
  type TicketListRow,
  type TicketSummaryRow,
  type TicketPriority,
  type TicketRow,
  type TicketStatus,
} from './ticket-rows';
import { iso } from '../../common/time/iso';

export const idOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

/** An optional reference to another record in a JSON body: a positive integer. */
export const OptionalId = (description: string, options: { nullable?: boolean } = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, description, ...options }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(Number.MAX_SAFE_INTEGER),
  );

export class TicketQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TICKET_STATUSES })
  @IsOptional()
  @IsIn(TICKET_STATUSES)
  status?: TicketStatus;

  @ApiPropertyOptional({ enum: TICKET_PRIORITIES })
  @IsOptional()
  @IsIn(TICKET_PRIORITIES)
  priority?: TicketPriority;
}

export class CreateTicketDto {
  @ApiProperty({ example: 'Cannot download my invoice', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  subject!: string;

  @ApiProperty({
    example: 'The download button on the billing page does nothing.',
    maxLength: 10000,
    description: 'The initial ticket message',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10000)
  description!: string;

  @ApiPropertyOptional({ enum: TICKET_PRIORITIES, default: 'normal' })
  @IsOptional()
  @IsIn(TICKET_PRIORITIES)
  priority?: TicketPriority;

  @OptionalId("A site of the organization; defaults to the organization's first site")
  site_id?: number;

  @OptionalId('Links an existing visitor of the organization')
  visitor_id?: number;

  @ApiPropertyOptional({
    maxLength: 255,
    example: 'Carla Customer',
    description: "Who asked, when no visitor is linked (else the visitor's name)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  customer_name?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    example: 'carla@example.com',
    description: "Who asked, when no visitor is linked (else the visitor's email)",
  })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  customer_email?: string;
}

export class UpdateTicketStatusDto {
  @ApiProperty({ enum: TICKET_STATUSES })
  @IsIn(TICKET_STATUSES)
  status!: TicketStatus;

  @OptionalId('Agent user performing the update; defaults to the user who created the key')
  agent_user_id?: number;
}

export class TicketSummaryDto {
  @ApiProperty({ example: 41 }) id!: number;
  @ApiProperty({ example: 'TKT-2026-000041' }) ticket_number!: string;
  @ApiProperty({ example: 'Cannot download my invoice' }) subject!: string;
  @ApiProperty({ enum: TICKET_STATUSES }) status!: string;
  @ApiProperty({ enum: TICKET_PRIORITIES }) priority!: string;
  @ApiProperty({ enum: TICKET_SOURCES }) source!: string;
}

export class TicketListItemDto extends TicketSummaryDto {
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class TicketCommentDto {
  @ApiProperty() id!: number;
  @ApiProperty() body!: string;
  @ApiProperty() is_internal!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/**
 * Every field of a ticket but its description and comments: an item of the agent desk's list, and
 * the base of both single-ticket shapes.
 */
export class AgentTicketListItemDto extends TicketListItemDto {
  @ApiProperty() site_id!: number;
  @ApiProperty({ type: 'integer', nullable: true }) visitor_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) customer_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) customer_email!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) assigned_agent_id!: number | null;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class TicketDetailDto extends AgentTicketListItemDto {
  @ApiProperty() description!: string;
  @ApiProperty({ type: [TicketCommentDto], description: 'Oldest first' })
  comments!: TicketCommentDto[];
}

export class TicketStatusDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: TICKET_STATUSES }) status!: string;
}

export class TicketPageDto extends PageMetaDto {
  @ApiProperty({ type: [TicketListItemDto] }) data!: TicketListItemDto[];
}

export class TicketDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TicketDetailDto }) data!: TicketDetailDto;
}

export class TicketCreatedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TicketSummaryDto }) data!: TicketSummaryDto;
}

export class TicketStatusResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TicketStatusDto }) data!: TicketStatusDto;
}

export const toTicketSummary = (
  ticket: Pick<TicketRow, 'id' | 'ticket_number' | 'subject' | 'status' | 'priority' | 'source'>,
): TicketSummaryDto => ({
  id: Number(ticket.id),
  ticket_number: ticket.ticket_number,
  subject: ticket.subject,
  status: ticket.status,
  priority: ticket.priority,
  source: ticket.source,
});

// Written out rather than spread from toTicketSummary: it runs for every row of every list.
export const toTicketListItem = (ticket: TicketSummaryRow): TicketListItemDto => ({
  id: Number(ticket.id),
  ticket_number: ticket.ticket_number,
  subject: ticket.subject,
  status: ticket.status,
  priority: ticket.priority,
  source: ticket.source,
  created_at: iso(ticket.created_at),
});

export const toAgentTicketListItem = (ticket: TicketListRow): AgentTicketListItemDto => ({
  ...toTicketListItem(ticket),
  site_id: Number(ticket.site_id),
  visitor_id: idOrNull(ticket.visitor_id),
  customer_name: ticket.customer_name,
  customer_email: ticket.customer_email,
  assigned_agent_id: idOrNull(ticket.assigned_agent_id),
  updated_at: iso(ticket.updated_at),
});

export const toTicketComment = (comment: TicketCommentRow): TicketCommentDto => ({
  id: Number(comment.id),
  body: comment.body,
  is_internal: comment.is_internal,
  created_at: iso(comment.created_at),
});

export const toTicketDetail = (
  ticket: TicketRow,
  comments: TicketCommentRow[],
): TicketDetailDto => ({
  ...toAgentTicketListItem(ticket),
  description: ticket.description,
  comments: comments.map(toTicketComment),
});
