import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { IsTimeZone } from '../../common/http/validators';
import { VisitorProfileDto, WidgetVisitorBodyDto } from '../../common/dto/widget-visitor.dto';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { WidgetConfigDto } from '../sites/widget-config.dto';

export const PLATFORMS = ['android', 'ios', 'react-native', 'flutter', 'capacitor', 'cordova'];

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

  @ApiPropertyOptional({
    example: 'https://www.google.com/',
    maxLength: 2048,
    description: "Where the visitor came to the site from (the host page's referrer)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  referrer?: string;

  @ApiPropertyOptional({
    example: 'Europe/Berlin',
    description: "The visitor's time zone (IANA), for their local time in the agents' panel",
  })
  @IsOptional()
  @IsTimeZone()
  timezone?: string;

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
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When the visitor agreed to the site's consent text (`widget_config.consent`); null: not yet",
  })
  consented_at!: string | null;
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

export class WidgetEmailDto {
  @ApiProperty({ maxLength: 255, example: 'ada@example.com' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(255)
  email!: string;
}

export class VisitorProfileResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

/* The widget session's own answers: the consent record and the ended session. */

class SessionEndedDto {
  @ApiProperty({ enum: [true] }) ended!: boolean;
}

export class ConsentDto {
  @ApiProperty({ format: 'date-time', description: 'When the visitor first agreed' })
  consented_at!: string;
}

export class ConsentResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConsentDto }) data!: ConsentDto;
}

export class SessionEndedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: SessionEndedDto }) data!: SessionEndedDto;
}
