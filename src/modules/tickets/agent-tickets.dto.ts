import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageMetaDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import {
  AgentTicketListItemDto,
  CreateTicketDto,
  idOrNull,
  OptionalId,
  TicketCommentDto,
  TicketQueryDto,
  toAgentTicketListItem,
} from './tickets.dto';
import { iso } from '../../common/time/iso';
import { toTicketCommentRecord, type TicketCommentRecord } from './ticket-record';
import {
  COMMENT_AUTHOR_TYPES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type TicketActivityRow,
  type TicketCommentRow,
  type TicketPriority,
  type TicketRow,
  type TicketStatus,
} from './ticket-rows';
import type { CustomerConversationRow, CustomerTicketRow } from './customer-history.repository';

/** Present means validated: `null` is a wrong value here, not an omission. */
const UnlessOmitted = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);

export class AgentTicketQueryDto extends TicketQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Tickets assigned to this agent',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  assigned_agent_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'The tickets made from this conversation',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  conversation_id?: number;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'Text found in the ticket number or the subject (any case)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  q?: string;
}

export class AgentCreateTicketDto extends CreateTicketDto {
  @OptionalId('An agent of the organization to assign the ticket to; unassigned when left out', {
    nullable: true,
  })
  assigned_agent_id?: number | null;

  @OptionalId(
    "The conversation the ticket is made from: linked both ways, its visitor and site become the ticket's",
  )
  conversation_id?: number;
}

export class UpdateTicketDto {
  @ApiPropertyOptional({ enum: TICKET_STATUSES })
  @UnlessOmitted()
  @IsIn(TICKET_STATUSES)
  status?: TicketStatus;

  @ApiPropertyOptional({ enum: TICKET_PRIORITIES })
  @UnlessOmitted()
  @IsIn(TICKET_PRIORITIES)
  priority?: TicketPriority;

  @OptionalId('An agent of the organization, or null to unassign', { nullable: true })
  assigned_agent_id?: number | null;
}

export class CreateTicketCommentDto {
  @ApiProperty({ maxLength: 10000, example: 'I have reset the download link; please try again.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10000)
  body!: string;

  @ApiPropertyOptional({
    default: false,
    description: 'An internal note is seen by agents only',
  })
  @UnlessOmitted()
  @IsBoolean()
  is_internal?: boolean;
}

export class AgentTicketCommentDto extends TicketCommentDto {
  @ApiProperty({ enum: COMMENT_AUTHOR_TYPES }) author_type!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The agent or visitor who wrote it (null for system comments)',
  })
  author_id!: number | null;
  @ApiProperty({
    description:
      'Written by mail from another address than the one the reply address was sent to: check who wrote it',
  })
  sender_mismatch!: boolean;
}

/** A ticket as the desk shows it: every field, with every comment (public and internal). */
export class AgentTicketActivityDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['created', 'status', 'priority', 'assignee'] }) kind!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The value before (a status, a priority, an agent id); null when filed or unset',
  })
  from!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The value after; null when unassigned',
  })
  to!: string | null;
  @ApiProperty({
    enum: ['agent', 'api', 'customer', 'system'],
    description: 'Who made the change: a member, an API key, the customer, the service',
  })
  actor_type!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The member (for an API key: the agent it acted as)',
  })
  actor_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AgentTicketDto extends AgentTicketListItemDto {
  @ApiProperty() description!: string;
  @ApiProperty({ type: [AgentTicketCommentDto], description: 'Public and internal, oldest first' })
  comments!: AgentTicketCommentDto[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The conversation it was made from (a chat turned into a ticket)',
  })
  conversation_id!: number | null;
  @ApiProperty({
    type: [AgentTicketActivityDto],
    description: 'Who filed it and changed its status, priority or assignee, oldest first',
  })
  activity!: AgentTicketActivityDto[];
}

export class AgentTicketPageDto extends PageMetaDto {
  @ApiProperty({ type: [AgentTicketListItemDto] }) data!: AgentTicketListItemDto[];
}

export class AgentTicketResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentTicketDto }) data!: AgentTicketDto;
}

export class AgentTicketCommentResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentTicketCommentDto }) data!: AgentTicketCommentDto;
}

/** An agent's view of a comment; from the record `TicketChangesService.addComment` answers. */
export const toAgentTicketComment = (comment: TicketCommentRecord): AgentTicketCommentDto => ({
  id: Number(comment.id),
  body: comment.body,
  is_internal: comment.isInternal,
  created_at: iso(comment.createdAt),
  author_type: comment.authorType,
  author_id: idOrNull(comment.authorId),
  sender_mismatch: comment.senderMismatch,
});

export const toAgentTicket = (
  ticket: TicketRow,
  comments: TicketCommentRow[],
  activity: TicketActivityRow[],
): AgentTicketDto => ({
  ...toAgentTicketListItem(ticket),
  description: ticket.description,
  comments: comments.map((comment) => toAgentTicketComment(toTicketCommentRecord(comment))),
  conversation_id: idOrNull(ticket.conversation_id),
  activity: activity.map((line) => ({
    id: Number(line.id),
    kind: line.kind,
    from: line.from_value,
    to: line.to_value,
    actor_type: line.actor_type,
    actor_id: idOrNull(line.actor_id),
    created_at: new Date(line.created_at).toISOString(),
  })),
});

export class CustomerTicketDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'TKT-2026-000001' }) ticket_number!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ enum: TICKET_STATUSES }) status!: TicketStatus;
  @ApiProperty({ enum: TICKET_PRIORITIES }) priority!: TicketPriority;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class CustomerConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ enum: ['waiting', 'active', 'closed', 'missed'] }) status!: string;
  @ApiProperty({ type: Number, nullable: true }) assigned_agent_id!: number | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closed_at!: string | null;
}

export class CustomerHistoryDto {
  @ApiProperty({ type: Number, nullable: true, description: "The ticket's visitor, if any" })
  visitor_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The address the customer is found by (the ticket's, else its visitor's)",
  })
  email!: string | null;
  @ApiProperty({ type: [CustomerTicketDto], description: 'The other tickets, newest first (50)' })
  tickets!: CustomerTicketDto[];
  @ApiProperty({ type: [CustomerConversationDto], description: 'The chats, newest first (50)' })
  conversations!: CustomerConversationDto[];
}

export class CustomerHistoryResponseDto extends EnvelopeDto {
  @ApiProperty({ type: CustomerHistoryDto }) data!: CustomerHistoryDto;
}

export function toCustomerHistory(history: {
  customer: { visitorId: string | null; email: string | null };
  tickets: CustomerTicketRow[];
  conversations: CustomerConversationRow[];
}): CustomerHistoryDto {
  return {
    visitor_id: history.customer.visitorId === null ? null : Number(history.customer.visitorId),
    email: history.customer.email,
    tickets: history.tickets.map((row) => ({
      id: Number(row.id),
      ticket_number: row.ticket_number,
      subject: row.subject,
      status: row.status,
      priority: row.priority,
      created_at: new Date(row.created_at).toISOString(),
    })),
    conversations: history.conversations.map((row) => ({
      id: Number(row.id),
      site_id: Number(row.site_id),
      status: row.status,
      assigned_agent_id: row.assigned_agent_id === null ? null : Number(row.assigned_agent_id),
      started_at: new Date(row.started_at).toISOString(),
      closed_at: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
    })),
  };
}
