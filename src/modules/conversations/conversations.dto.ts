import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AttachmentDto } from '../attachments/attachments.dto';
import { MessageContentDto, MessageDto, toMessageDto } from '../messages/messages.dto';
import type { MessageRow } from '../messages/messages.repository';
import {
  CONVERSATION_STATUSES,
  type ConversationRow,
  type ConversationStatus,
} from './conversations.repository';

export class ConversationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CONVERSATION_STATUSES })
  @IsOptional()
  @IsIn(CONVERSATION_STATUSES)
  status?: ConversationStatus;

  @ApiPropertyOptional({ type: Number, minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;
}

export class SendMessageDto extends MessageContentDto {
  @ApiPropertyOptional({
    description: 'Agent user sending the reply; defaults to the user who created the key',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  agent_user_id?: number;
}

export class CloseConversationDto {
  @ApiPropertyOptional({
    description: 'Agent user closing the conversation; defaults to the key creator',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  agent_user_id?: number;
}

class ConversationVisitorDto {
  @ApiProperty() id!: number;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
}

export class ConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty() visitor_id!: number;
  @ApiProperty({ enum: CONVERSATION_STATUSES }) status!: string;
  @ApiProperty({ example: 'visitor' }) type!: string;
  @ApiProperty({ type: String, nullable: true, example: 'en' }) locale!: string | null;
  @ApiProperty({ type: Number, nullable: true }) assigned_agent_id!: number | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closed_at!: string | null;
  @ApiProperty({ type: ConversationVisitorDto }) visitor!: ConversationVisitorDto;
}

export class ConversationDetailDto extends ConversationDto {
  @ApiProperty({ type: [MessageDto], description: 'Every message, oldest first' })
  messages!: MessageDto[];
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function toConversationDto(row: ConversationRow): ConversationDto {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    visitor_id: Number(row.visitor_id),
    status: row.status,
    type: row.type,
    locale: row.locale,
    assigned_agent_id: row.assigned_agent_id === null ? null : Number(row.assigned_agent_id),
    started_at: new Date(row.started_at).toISOString(),
    closed_at: iso(row.closed_at),
    visitor: { id: Number(row.visitor_id), name: row.visitor_name, email: row.visitor_email },
  };
}

export function toConversationDetail(
  row: ConversationRow,
  messages: MessageRow[],
): ConversationDetailDto {
  return { ...toConversationDto(row), messages: messages.map(toMessageDto) };
}

export class ConversationPageDto extends PageMetaDto {
  @ApiProperty({ type: [ConversationDto] }) data!: ConversationDto[];
}

export class ConversationDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationDetailDto }) data!: ConversationDetailDto;
}

export class MessagePageDto extends PageMetaDto {
  @ApiProperty({ type: [MessageDto], description: 'Newest first' }) data!: MessageDto[];
}

/** Message create repeats the message at the top level beside `data` (DESIGN section 3). */
export class MessageCreatedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: MessageDto }) data!: MessageDto;
  @ApiProperty() id!: number;
  @ApiProperty() body!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ enum: ['agent'] }) sender_type!: string;
  @ApiProperty() sender_id!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [AttachmentDto] }) attachments!: AttachmentDto[];
  @ApiProperty({ description: 'A private note (agents only)' }) private!: boolean;
}

class ClosedConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['closed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) closed_at!: string;
}

export class ConversationClosedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ClosedConversationDto }) data!: ClosedConversationDto;
}
