import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AttachmentDto } from '../attachments/attachments.dto';
import { ChatMessageDto, MessageActionDto, MessageContentDto } from '../messages/messages.dto';

/* The widget's chat: messages, read state, ending the conversation and the visitor's review. */

export class WidgetSendMessageDto extends MessageContentDto {}

export class WidgetMessageCreatedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ChatMessageDto }) data!: ChatMessageDto;
  @ApiProperty() id!: number;
  @ApiProperty() conversation_id!: number;
  @ApiProperty() body!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ enum: ['visitor'] }) sender_type!: string;
  @ApiProperty({ type: Number, nullable: true }) sender_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [AttachmentDto] }) attachments!: AttachmentDto[];
  @ApiProperty({ enum: [false] }) private!: boolean;
  @ApiProperty({ enum: [false] }) sender_mismatch!: boolean;
  @ApiProperty({ type: [MessageActionDto], description: 'Always empty for a visitor message' })
  actions!: MessageActionDto[];
  @ApiProperty({ type: String, nullable: true, enum: [null] }) sender_name!: null;
  @ApiProperty({ type: String, nullable: true, enum: [null] }) sender_avatar_url!: null;
}

export class WidgetMessagesQueryDto {
  @ApiPropertyOptional({
    minimum: 0,
    default: 0,
    description: 'Only messages with a larger id (the last one the widget saw)',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  after_id?: number;
}

export class ChatMessageListDto extends EnvelopeDto {
  @ApiProperty({
    type: [ChatMessageDto],
    description: 'Oldest first, at most 200; ask again after the last id for more',
  })
  data!: ChatMessageDto[];
  @ApiProperty({
    description: "Agent and bot messages past the visitor's read position, as in init",
  })
  unread_count!: number;
}

export class WidgetReadDto {
  @ApiProperty({ description: "One of the visitor's conversations" })
  @IsInt()
  @Min(1)
  conversation_id!: number;

  @ApiProperty({ description: 'The last message id the visitor has seen' })
  @IsInt()
  @Min(1)
  message_id!: number;
}

class WidgetReadStateDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ description: 'The read position after the update (never moves back)' })
  message_id!: number;
  @ApiProperty({ description: 'Unread agent and bot messages left' }) unread_count!: number;
}

export class WidgetReadResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetReadStateDto }) data!: WidgetReadStateDto;
}

export class ConversationEndedDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['closed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) closed_at!: string;
}

export class ConversationEndedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationEndedDto }) data!: ConversationEndedDto;
}

export class WidgetReviewDto {
  @ApiProperty({ minimum: 1, maximum: 5 })
  @IsInt()
  @Min(1)
  @Max(5)
  rating!: number;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string;

  @ApiPropertyOptional({ description: "One of the visitor's conversations; default the latest" })
  @IsOptional()
  @IsInt()
  @Min(1)
  conversation_id?: number;
}

export class ReviewDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating!: number;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
}

export class ReviewResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ReviewDto }) data!: ReviewDto;
}
