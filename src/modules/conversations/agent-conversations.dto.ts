import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsIdOr } from '../../common/http/id-param';
import { PageMetaDto, QueryBoolean, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { ChatMessageDto, MessageContentDto } from '../messages/messages.dto';
import {
  ConversationDetailDto,
  ConversationDto,
  ConversationQueryDto,
  toConversationDto,
} from './conversations.dto';
import type { ConversationRow } from './conversations.repository';
import { toConversationRecord } from './conversation-record';
import type { InboxRow } from './inbox.repository';

export class InboxQueryDto extends ConversationQueryDto {
  @ApiPropertyOptional({
    type: String,
    pattern: '^(me|none|[1-9][0-9]{0,18})$',
    description: 'Assigned to this agent: an id, `me` (the caller) or `none` (unassigned)',
  })
  @IsOptional()
  @IsString()
  @IsIdOr(['me', 'none'], {
    message: 'The assigned agent must be an agent id, "me" or "none".',
  })
  assigned_agent_id?: string;

  @ApiPropertyOptional({ description: 'Carrying this label: its id or its name (any case)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  label?: string;

  @ApiPropertyOptional({
    enum: ['newest', 'activity'],
    default: 'newest',
    description: '`newest`: started last first; `activity`: newest message first',
  })
  @IsOptional()
  @IsIn(['newest', 'activity'])
  sort?: 'newest' | 'activity';

  @ApiPropertyOptional({ type: Boolean, description: 'Only conversations nobody is assigned to' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  unassigned?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      '`true`: only the snoozed conversations (the Snoozed view); otherwise snoozed ones are left out until they wake',
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  snoozed?: boolean;
}

export class AfterQueryDto {
  @ApiPropertyOptional({
    minimum: 0,
    default: 0,
    description: 'Only messages with a larger id (the last one the client saw)',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  after_id?: number;
}

export class ConversationMessagesQueryDto extends AfterQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    description:
      'Instead of after_id: the messages just before this id, oldest first (at most 200), to scroll back',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  before_id?: number;
}

export class ConversationDetailQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 200,
    description:
      'Only the latest this many messages (oldest first); `has_earlier_messages` tells whether older ones exist, read them with `GET .../messages?before_id=`. Without it: every message.',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(200)
  message_limit?: number;
}

export class AgentReplyDto extends MessageContentDto {
  @ApiPropertyOptional({
    default: false,
    description:
      'A private note: seen by agents only, never by the visitor, no `message.sent`, no status change',
  })
  @IsOptional()
  @IsBoolean()
  private?: boolean;
}

export class AssignDto {
  @ApiPropertyOptional({ description: 'The agent to assign; default the caller' })
  @IsOptional()
  @IsInt()
  @Min(1)
  agent_id?: number;

  @ApiPropertyOptional({
    maxLength: 5000,
    description: 'A hand-over: a private note for the team left in the same step (one transaction)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'The note field must not be empty.' })
  @MaxLength(5000)
  note?: string;
}

export class ReadDto {
  @ApiProperty({ description: 'The last message id read' })
  @IsInt()
  @Min(1)
  message_id!: number;
}

export class ReadPositionDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ description: 'The read position after the update (never moves back)' })
  message_id!: number;
}

export class ReadResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ReadPositionDto }) data!: ReadPositionDto;
}

export class ConversationResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationDto }) data!: ConversationDto;
}

export class AgentMessageListDto extends EnvelopeDto {
  @ApiProperty({
    type: [ChatMessageDto],
    description: 'Oldest first, at most 200; ask again after the last id for more',
  })
  data!: ChatMessageDto[];
}

export class InboxLabelDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ example: '#1f6feb' }) color!: string;
}

class LastMessageDto {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'The first 200 characters' }) body!: string;
  @ApiProperty({ enum: ['visitor', 'agent', 'bot', 'system'] }) sender_type!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class InboxConversationDto extends ConversationDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_message_at!: string | null;
  @ApiProperty({ type: [InboxLabelDto] }) labels!: InboxLabelDto[];
  @ApiProperty({ type: LastMessageDto, nullable: true }) last_message!: LastMessageDto | null;
  @ApiProperty({
    description: "Visitor messages after the agents' read position and after the last agent reply",
  })
  unread_count!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Snoozed until then (out of the open views); null when not snoozed',
  })
  snoozed_until!: string | null;
}

export function toInboxConversationDto(row: InboxRow): InboxConversationDto {
  return {
    ...toConversationDto(toConversationRecord(row)),
    snoozed_until: snoozedUntil(row.snoozed_until),
    last_message_at: row.last_message_at ? new Date(row.last_message_at).toISOString() : null,
    labels: row.labels.map((label) => ({ ...label, id: Number(label.id) })),
    last_message: row.last_message
      ? {
          ...row.last_message,
          id: Number(row.last_message.id),
          created_at: new Date(row.last_message.created_at).toISOString(),
        }
      : null,
    unread_count: Number(row.unread_count),
  };
}

export class InboxPageDto extends PageMetaDto {
  @ApiProperty({ type: [InboxConversationDto] }) data!: InboxConversationDto[];
}

/** The visitor's rating of a closed conversation and their comment (null until given). */
export function toConversationReview(row: ConversationRow) {
  return {
    rating: row.rating,
    review_comment: row.review_comment,
    reviewed_at: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
  };
}

/** When a snoozed conversation wakes; null when it is not snoozed (or its time has passed). */
export function snoozedUntil(at: Date | null): string | null {
  if (!at) return null;
  const until = new Date(at);
  return until.getTime() > Date.now() ? until.toISOString() : null;
}

export class SnoozeDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-27T09:00:00Z',
    description: 'When it comes back (in the future, within a year); null wakes it now',
  })
  @IsDefined({ message: 'The until field is required.' })
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true }, { message: 'The until field must be a date and time.' })
  until!: string | null;
}

export class AgentConversationDetailDto extends ConversationDetailDto {
  @ApiProperty({ type: [InboxLabelDto] }) labels!: InboxLabelDto[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Snoozed until then (out of the open views); null when not snoozed',
  })
  snoozed_until!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: 5,
    description: "The visitor's rating, once given",
  })
  rating!: number | null;
  @ApiProperty({ type: String, nullable: true, description: "The visitor's comment with it" })
  review_comment!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewed_at!: string | null;
  @ApiProperty({
    description: 'Whether messages older than the first one returned exist (with `message_limit`)',
  })
  has_earlier_messages!: boolean;
}

export class AgentConversationDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentConversationDetailDto }) data!: AgentConversationDetailDto;
}

export class SnoozeStateDto {
  @ApiProperty() id!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  snoozed_until!: string | null;
}

export class SnoozeResponseDto extends EnvelopeDto {
  @ApiProperty({ type: SnoozeStateDto }) data!: SnoozeStateDto;
}
