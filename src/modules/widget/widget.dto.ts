import { ApiProperty, ApiPropertyOptional, IntersectionType, PickType } from '@nestjs/swagger';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AttachmentDto } from '../attachments/attachments.dto';
import { ChatMessageDto, MessageContentDto } from '../messages/messages.dto';
import { WidgetConfigDto } from '../sites/widget-config';
import { CreateTicketDto, TicketListItemDto, toTicketListItem } from '../tickets/tickets.dto';
import type { TicketRow } from '../tickets/tickets.repository';

export const PLATFORMS = ['android', 'ios', 'react-native', 'flutter', 'capacitor', 'cordova'];

/** The widget credentials of a body; the guard reads them (or the session token instead). */
export class WidgetVisitorBodyDto {
  @ApiPropertyOptional({
    description: 'The site widget key; not needed with a session token',
    example: 'wk_0123456789abcdefABCDEF0123456789',
  })
  @IsOptional()
  @IsString()
  widget_key?: string;

  @ApiPropertyOptional({
    description: 'The visitor UID from init; not needed with a session token',
    format: 'uuid',
  })
  @IsOptional()
  @IsString()
  visitor_uid?: string;
}

export class WidgetInitDto {
  @ApiProperty({ example: 'wk_0123456789abcdefABCDEF0123456789' })
  @IsString()
  @IsNotEmpty()
  widget_key!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Resume this visitor session' })
  @IsOptional()
  @IsUUID()
  visitor_uid?: string;

  @ApiPropertyOptional({ example: 'en', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  locale?: string;

  @ApiPropertyOptional({ example: 'https://shop.example/pricing', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ example: 'Pricing', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  page_title?: string;

  @ApiPropertyOptional({ example: 'Ada Lovelace', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  visitor_name?: string;

  @ApiPropertyOptional({ example: 'ada@example.com', maxLength: 255 })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  visitor_email?: string;

  @ApiPropertyOptional({ example: '+49 30 1234567', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  visitor_phone?: string;

  @ApiPropertyOptional({ description: 'Alias of visitor_phone', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  visitor_mobile?: string;

  @ApiPropertyOptional({ description: 'Alias of visitor_phone', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  mobile?: string;

  @ApiPropertyOptional({ enum: PLATFORMS, description: 'Set by the mobile SDKs' })
  @IsOptional()
  @IsIn(PLATFORMS)
  platform?: string;

  @ApiPropertyOptional({
    example: 'com.example.shop',
    maxLength: 255,
    description:
      "Required with platform; must be an `app:<app id>` entry of the site's allowed_domains",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  app_id?: string;

  @ApiPropertyOptional({ example: '2.4.1', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  app_version?: string;

  @ApiPropertyOptional({ example: '241', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  app_build?: string;
}

class AccountLoginDto {
  @ApiProperty() logged_in!: boolean;
  @ApiProperty({ type: String, nullable: true }) identifier!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) verified_at!: string | null;
}

export class VisitorProfileDto {
  @ApiProperty({ description: 'Empty while unknown' }) name!: string;
  @ApiProperty({ description: 'Empty while unknown' }) email!: string;
  @ApiProperty({ description: 'Empty while unknown' }) phone!: string;
  @ApiProperty({ description: 'Every required pre-chat field is filled' })
  profile_complete!: boolean;
  @ApiProperty() pre_chat_submitted!: boolean;
  @ApiProperty({ type: AccountLoginDto }) account_login!: AccountLoginDto;
}

export class WidgetInitResponseDto extends EnvelopeDto {
  @ApiProperty({ format: 'uuid' }) visitor_uid!: string;
  @ApiProperty() visitor_id!: number;
  @ApiProperty({
    description:
      'Signed session token: `Authorization: Bearer` on widget calls, and the Socket.IO `/widget` auth token',
  })
  session_token!: string;
  @ApiProperty({ description: 'The open conversation (listed once the first message starts it)' })
  conversation_id!: number;
  @ApiProperty({ type: WidgetConfigDto }) widget_config!: WidgetConfigDto;
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
  @ApiProperty({
    description:
      "Agent and bot messages of the visitor's conversations past its read position (the launcher badge)",
  })
  unread_count!: number;
}

export class WidgetProfileDto extends WidgetVisitorBodyDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  email?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Custom pre-chat fields by key',
  })
  @IsOptional()
  @IsObject()
  custom_fields?: Record<string, unknown>;
}

export class VisitorProfileResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

export class WidgetSendMessageDto extends IntersectionType(
  WidgetVisitorBodyDto,
  MessageContentDto,
) {}

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
}

export class WidgetMessagesQueryDto {
  @ApiPropertyOptional({ example: 'wk_0123456789abcdefABCDEF0123456789' })
  @IsOptional()
  @IsString()
  widget_key?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsString()
  visitor_uid?: string;

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

export class WidgetReadDto extends WidgetVisitorBodyDto {
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

/** What a visitor leaves while no agent is online: it becomes a ticket (source widget). */
export class WidgetOfflineMessageDto extends WidgetVisitorBodyDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 255, description: 'Where to answer' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ example: 'Do you ship to Norway?', maxLength: 5000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  message!: string;

  @ApiPropertyOptional({ example: 'Ada Lovelace', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export class ConversationEndedDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['closed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) closed_at!: string;
}

export class ConversationEndedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationEndedDto }) data!: ConversationEndedDto;
}

export class WidgetReviewDto extends WidgetVisitorBodyDto {
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

/**
 * A ticket the visitor raises from the widget. There is no priority: a visitor would mark every
 * request urgent, so agents triage (the ticket starts `normal`).
 */
export class WidgetCreateTicketDto extends IntersectionType(
  WidgetVisitorBodyDto,
  PickType(CreateTicketDto, ['subject', 'description']),
) {
  @ApiPropertyOptional({
    maxLength: 255,
    example: 'Ada Lovelace',
    description: "Who to answer; default the visitor's name",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    example: 'ada@example.com',
    description: "Where to answer; default the visitor's email",
  })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  email?: string;
}

/** A ticket as the visitor who raised it sees it: no assignee, no internal fields. */
export class WidgetTicketDto extends TicketListItemDto {
  @ApiProperty() description!: string;
  @ApiProperty() visitor_id!: number;
  @ApiProperty({ type: String, nullable: true }) customer_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) customer_email!: string | null;
}

export class WidgetTicketResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetTicketDto }) data!: WidgetTicketDto;
}

export const toWidgetTicket = (ticket: TicketRow): WidgetTicketDto => ({
  ...toTicketListItem(ticket),
  description: ticket.description,
  visitor_id: Number(ticket.visitor_id),
  customer_name: ticket.customer_name,
  customer_email: ticket.customer_email,
});
