import { ApiProperty } from '@nestjs/swagger';
import type { MessageRow } from './messages.repository';

export class MessageDto {
  @ApiProperty({ example: 101 }) id!: number;
  @ApiProperty({ example: 'Hello, how can I help?' }) body!: string;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty({ enum: ['visitor', 'agent', 'bot', 'system'] }) sender_type!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The agent user on agent messages' })
  sender_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [],
  })
  attachments!: unknown[];
}

/** A message with its conversation: live pushes and catch-up lists span conversations. */
export class ChatMessageDto extends MessageDto {
  @ApiProperty() conversation_id!: number;
}

export function toMessageDto(message: MessageRow): MessageDto {
  return {
    id: Number(message.id),
    body: message.body,
    type: message.type,
    sender_type: message.sender_type,
    sender_id: message.sender_id === null ? null : Number(message.sender_id),
    created_at: new Date(message.created_at).toISOString(),
    attachments: message.attachments,
  };
}
