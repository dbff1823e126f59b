import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Min } from 'class-validator';
import { QueryBoolean, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { ChatMessageDto, MessageContentDto } from '../messages/messages.dto';
import { ConversationDto, ConversationQueryDto } from './conversations.dto';

export class InboxQueryDto extends ConversationQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1, description: 'Assigned to this agent' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  assigned_agent_id?: number;

  @ApiPropertyOptional({ type: Boolean, description: 'Only conversations nobody is assigned to' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  unassigned?: boolean;
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
