import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';

export const SEARCH_TYPES = ['messages', 'visitors', 'tickets'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export class SearchQueryDto extends PageQueryDto {
  @ApiProperty({
    maxLength: 200,
    description:
      'Messages: every word, as a word prefix; visitors (name, email, phone) and tickets (number, subject): the text anywhere, any case',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  q!: string;

  @ApiPropertyOptional({ enum: SEARCH_TYPES, default: 'messages' })
  @IsOptional()
  @IsIn(SEARCH_TYPES)
  type?: SearchType;
}

export class SearchHitDto {
  @ApiProperty({ enum: ['message', 'visitor', 'ticket'], description: 'What was found' })
  type!: string;
  @ApiProperty({ description: 'The id of the message, visitor or ticket' }) id!: number;
  @ApiProperty({
    description:
      'A line to show: the ticket number and subject, the visitor name, who wrote the message to or from whom',
  })
  title!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The first 200 characters' })
  excerpt!: string | null;
  @ApiProperty({ type: Number, nullable: true }) conversation_id!: number | null;
  @ApiProperty({ type: Number, nullable: true }) ticket_id!: number | null;
  @ApiProperty({ type: Number, nullable: true }) visitor_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The visitor a message hit was written by or to (name, else email)',
  })
  visitor_name!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'visitor',
    description: 'Who wrote a message hit (`visitor`, `agent`, `system`); null for other hits',
  })
  sender_type!: string | null;
  @ApiProperty({ description: 'A private note (agents only, never shown to the visitor)' })
  private!: boolean;
  @ApiProperty({
    description: 'Where to read it in the agent API: the conversation, ticket or visitor',
    example: 'https://chat.example.com/api/agent/conversations/12',
  })
  link!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class SearchPageDto extends PageMetaDto {
  @ApiProperty({ type: [SearchHitDto], description: 'Newest first' }) data!: SearchHitDto[];
}
