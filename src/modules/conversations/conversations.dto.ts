import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AttachmentDto } from '../attachments/attachments.dto';
import { MessageContentDto, MessageDto, toMessageDto } from '../messages/messages.dto';
import type { MessageRecord } from '../messages/messages.service';
import {
  CONVERSATION_STATUSES,
  type ConversationRow,
  type ConversationStatus,
} from './conversations.repository';
import { iso } from '../../common/time/iso';
import { type ConversationRecord, toConversationRecord } from './conversation-record';

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

/** From the record `AgentChatService` answers; this feature's rows go through `toConversationRecord`. */
export function toConversationDto(conversation: ConversationRecord): ConversationDto {
  return {
    id: Number(conversation.id),
    site_id: Number(conversation.siteId),
    visitor_id: Number(conversation.visitorId),
    status: conversation.status,
    type: conversation.type,
    locale: conversation.locale,
    assigned_agent_id:
      conversation.assignedAgentId === null ? null : Number(conversation.assignedAgentId),
    started_at: new Date(conversation.startedAt).toISOString(),
    closed_at: iso(conversation.closedAt),
    visitor: {
      id: Number(conversation.visitorId),
      name: conversation.visitorName,
      email: conversation.visitorEmail,
    },
  };
}

export function toConversationDetail(
  row: ConversationRow,
  messages: MessageRecord[],
): ConversationDetailDto {
  return {
    ...toConversationDto(toConversationRecord(row)),
    messages: messages.map(toMessageDto),
  };
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
  @ApiProperty({ description: 'Written by mail from an unexpected address' })
  sender_mismatch!: boolean;
}

class ClosedConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['closed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) closed_at!: string;
}

export class ConversationClosedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ClosedConversationDto }) data!: ClosedConversationDto;
}
