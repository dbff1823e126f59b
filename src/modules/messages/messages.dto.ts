import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { AttachmentDto } from '../attachments/attachments.dto';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../attachments/attachments.service';
import type { MessageRecord } from './message-record';
import type { MessageAction, SenderType } from './messages.repository';

export class MessageActionDto {
  @ApiProperty({ enum: ['resolved', 'handoff'], description: 'What the widget posts back' })
  id!: MessageAction['id'];
  @ApiProperty({ example: 'That helped' }) label!: string;
}

export class MessageDto {
  @ApiProperty({ example: 101 }) id!: number;
  @ApiProperty({ example: 'Hello, how can I help?' }) body!: string;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty({ enum: ['visitor', 'agent', 'bot', 'system'] }) sender_type!: SenderType;
  @ApiProperty({ type: Number, nullable: true, description: 'The agent user on agent messages' })
  sender_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [AttachmentDto] })
  attachments!: AttachmentDto[];
  @ApiProperty({
    description: 'A private note: agents only, never shown to the visitor (always false there)',
  })
  private!: boolean;
  @ApiProperty({
    description:
      'Written by mail from another address than the one the reply address was sent to: the agent may want to check who wrote it',
  })
  sender_mismatch!: boolean;
}

/** A message with its conversation: live pushes and catch-up lists span conversations. */
export class ChatMessageDto extends MessageDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "An agent's message: the agent's display name (null for other senders)",
  })
  sender_name!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "An agent's message: the agent's avatar address, or null",
  })
  sender_avatar_url!: string | null;
  @ApiProperty({
    type: [MessageActionDto],
    description:
      'Buttons under a bot message: the answer bot\'s `resolved` ("That helped") and `handoff` ("Talk to a person"); empty for others',
  })
  actions!: MessageActionDto[];
}

export function toMessageDto(message: MessageRecord): MessageDto {
  return {
    id: Number(message.id),
    body: message.body,
    type: message.type,
    sender_type: message.senderType,
    sender_id: message.senderId === null ? null : Number(message.senderId),
    created_at: new Date(message.createdAt).toISOString(),
    attachments: message.attachments,
    private: message.private,
    sender_mismatch: message.senderMismatch,
  };
}

const hasAttachments = (dto: MessageContentDto) => (dto.attachment_ids?.length ?? 0) > 0;

/** A message needs a body unless it carries attachments (then the body may be empty). */
const BodyUnlessAttachments = () =>
  ValidateBy({
    name: 'bodyUnlessAttachments',
    validator: {
      validate: (value: unknown, args) =>
        hasAttachments(args?.object as MessageContentDto) ||
        (typeof value === 'string' && value.length > 0),
      defaultMessage: () => 'The body field is required unless attachment_ids are given.',
    },
  });

/** What a message says: its text, its attachments (uploaded before by the same sender), or both. */
export class MessageContentDto {
  @ApiPropertyOptional({
    example: 'Here is the invoice you asked for.',
    maxLength: 5000,
    description: 'Required unless `attachment_ids` are given (then it may be empty)',
  })
  @ValidateIf((dto: MessageContentDto) => dto.body !== undefined || !hasAttachments(dto))
  @BodyUnlessAttachments()
  @IsString()
  @MaxLength(5000)
  body?: string;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: MAX_ATTACHMENTS_PER_MESSAGE,
    example: [12],
    description:
      'Attachments the sender uploaded and has not sent yet (their `id` from the upload answer)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ATTACHMENTS_PER_MESSAGE)
  @IsInt({ each: true })
  @Min(1, { each: true })
  attachment_ids?: number[];
}
