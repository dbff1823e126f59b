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
  toTicketComment,
} from './tickets.dto';
import {
  COMMENT_AUTHOR_TYPES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type TicketCommentRow,
  type TicketPriority,
  type TicketRow,
  type TicketStatus,
} from './ticket-rows';

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
}

/** A ticket as the desk shows it: every field, with every comment (public and internal). */
export class AgentTicketDto extends AgentTicketListItemDto {
  @ApiProperty() description!: string;
  @ApiProperty({ type: [AgentTicketCommentDto], description: 'Public and internal, oldest first' })
  comments!: AgentTicketCommentDto[];
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

export const toAgentTicketComment = (comment: TicketCommentRow): AgentTicketCommentDto => ({
  ...toTicketComment(comment),
  author_type: comment.author_type,
  author_id: idOrNull(comment.author_id),
});

export const toAgentTicket = (ticket: TicketRow, comments: TicketCommentRow[]): AgentTicketDto => ({
  ...toAgentTicketListItem(ticket),
  description: ticket.description,
  comments: comments.map(toAgentTicketComment),
});
