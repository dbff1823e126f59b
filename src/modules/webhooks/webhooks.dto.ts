import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
} from 'class-validator';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { WEBHOOK_EVENTS } from './webhook-events';
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhooks.repository';
import { iso } from '../../common/time/iso';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://hooks.example.com/support',
    maxLength: 2048,
    description: 'https (http only with WEBHOOK_ALLOW_INSECURE)',
  })
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true, example: ['message.received'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events!: string[];

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint' })
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}

export class WebhookEndpointDto {
  @ApiProperty() id!: number;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true }) events!: string[];
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ example: 'whsec_Ab3d', description: 'The first characters of the signing secret' })
  secret_prefix!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabled_at!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'gone',
    description:
      'null while enabled; `gone`: the endpoint answered 410; `failing`: every attempt failed for 5 days',
  })
  disabled_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookEndpointResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WebhookEndpointDto }) data!: WebhookEndpointDto;
}

export class WebhookCreatedResponseDto extends WebhookEndpointResponseDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown once: keep it to verify X-Service-Signature and webhook-signature',
  })
  signing_secret!: string;
}

export class WebhookEndpointPageDto extends PageMetaDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) data!: WebhookEndpointDto[];
}

export class WebhookAttemptDto {
  @ApiProperty() attempt!: number;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty() duration_ms!: number;
  @ApiProperty({ type: Number, nullable: true }) status_code!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1000 characters' })
  response_excerpt!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'X-Service-Delivery of every attempt' }) id!: string;
  @ApiProperty({ example: 'message.received' }) event!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  next_attempt_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) last_status_code!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at!: string | null;
  @ApiProperty({ type: [WebhookAttemptDto] }) attempt_log!: WebhookAttemptDto[];
}

export class WebhookDeliveryPageDto extends PageMetaDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) data!: WebhookDeliveryDto[];
}

export class WebhookDeliveryResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WebhookDeliveryDto }) data!: WebhookDeliveryDto;
}

export function toEndpointDto(row: EndpointRow): WebhookEndpointDto {
  return {
    id: Number(row.id),
    url: row.url,
    description: row.description,
    events: row.events,
    is_active: row.is_active,
    secret_prefix: row.secret_prefix,
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function toDeliveryDto(row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryDto {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: iso(row.completed_at),
    attempt_log: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: new Date(attempt.started_at).toISOString(),
      duration_ms: attempt.duration_ms,
      status_code: attempt.status_code,
      response_excerpt: attempt.response_excerpt,
      error: attempt.error,
    })),
  };
}
