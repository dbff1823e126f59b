import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { PLANS, type Plan } from '../organizations/plans';
import type {
  FailedMailRow,
  FailingEndpointRow,
  InstanceRow,
  PlatformOrganizationRow,
} from './platform.repository';
import { iso } from '../../common/time/iso';

export class PlatformOrganizationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: "Part of the name or of a member's email address, or the exact id",
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class UpdatePlatformOrganizationDto {
  @ApiPropertyOptional({ enum: PLANS })
  @IsOptional()
  @IsIn(PLANS)
  plan?: Plan;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the subscription ends (widget routes answer 402 after the grace days); null: never',
  })
  @ValidateIf((dto: UpdatePlatformOrganizationDto) => dto.subscription_ends_at !== null)
  @IsOptional()
  @IsISO8601({ strict: true })
  subscription_ends_at?: string | null;
}

export class SuspendOrganizationDto {
  @ApiProperty({
    description: "Why, in a sentence the organization's members read",
    example: 'Payment overdue since 1 November. Contact billing@example.com.',
    maxLength: 500,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason!: string;
}

class UsageDto {
  @ApiProperty({ description: 'Active members' }) members!: number;
  @ApiProperty() sites!: number;
  @ApiProperty({ description: 'Conversations started since the first of this month (UTC)' })
  conversations_this_month!: number;
  @ApiProperty({ description: 'Bytes of stored attachments' }) storage_bytes!: number;
}

export class PlatformOrganizationDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: PLANS }) plan!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  subscription_ends_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) suspended_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) suspension_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: UsageDto }) usage!: UsageDto;
}

export class PlatformOrganizationListDto extends PageMetaDto {
  @ApiProperty({ type: PlatformOrganizationDto, isArray: true }) data!: PlatformOrganizationDto[];
}

export class PlatformOrganizationResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PlatformOrganizationDto }) data!: PlatformOrganizationDto;
}

export function toPlatformOrganizationDto(row: PlatformOrganizationRow): PlatformOrganizationDto {
  return {
    id: Number(row.id),
    name: row.name,
    plan: row.plan,
    subscription_ends_at: iso(row.subscription_ends_at),
    suspended_at: iso(row.suspended_at),
    suspension_reason: row.suspension_reason,
    created_at: new Date(row.created_at).toISOString(),
    usage: {
      members: Number(row.members),
      sites: Number(row.sites),
      conversations_this_month: Number(row.conversations_this_month),
      storage_bytes: Number(row.storage_bytes),
    },
  };
}

class FailedJobDto {
  @ApiProperty({ example: '42' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) failed_reason!: string | null;
  @ApiProperty() attempts_made!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) created_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) failed_at!: string | null;
}

class QueueHealthDto {
  @ApiProperty({ example: 'webhook-deliveries' }) name!: string;
  @ApiProperty() waiting!: number;
  @ApiProperty() prioritized!: number;
  @ApiProperty() active!: number;
  @ApiProperty() delayed!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() completed!: number;
  @ApiProperty({ description: 'Age of the oldest waiting job (0 when none waits)' })
  oldest_waiting_seconds!: number;
  @ApiProperty({ type: FailedJobDto, isArray: true, description: 'The newest 20 failed jobs' })
  failed_jobs!: FailedJobDto[];
}

class OutboxBacklogDto {
  @ApiProperty({ description: 'Domain events not yet handed to their subscribers' })
  pending!: number;
  @ApiProperty({ description: 'Age of the oldest pending event (0 when none)' })
  lag_seconds!: number;
  @ApiProperty({ description: 'Events given up on after their last attempt (kept a week)' })
  failed!: number;
}

class QueuesOverviewDto {
  @ApiProperty({ type: QueueHealthDto, isArray: true }) queues!: QueueHealthDto[];
  @ApiProperty({ type: OutboxBacklogDto }) outbox!: OutboxBacklogDto;
}

export class QueuesOverviewResponseDto extends EnvelopeDto {
  @ApiProperty({ type: QueuesOverviewDto }) data!: QueuesOverviewDto;
}

class JobActionDto {
  @ApiProperty() queue!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['waiting', 'removed'] }) state!: string;
}

export class JobActionResponseDto extends EnvelopeDto {
  @ApiProperty({ type: JobActionDto }) data!: JobActionDto;
}

class InstanceDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() hostname!: string;
  @ApiProperty() pid!: number;
  @ApiProperty({ example: '0.1.0' }) version!: string;
  @ApiProperty() workers_enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;
  @ApiProperty({ description: 'The instance that answered this request' }) current!: boolean;
}

export class InstancesResponseDto extends EnvelopeDto {
  @ApiProperty({ type: InstanceDto, isArray: true }) data!: InstanceDto[];
}

export function toInstanceDto(row: InstanceRow, currentId: string): InstanceDto {
  return {
    id: row.id,
    hostname: row.hostname,
    pid: row.pid,
    version: row.version,
    workers_enabled: row.workers_enabled,
    started_at: new Date(row.started_at).toISOString(),
    last_seen_at: new Date(row.last_seen_at).toISOString(),
    current: row.id === currentId,
  };
}

class OrganizationRefDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
}

class FailingWebhookEndpointDto {
  @ApiProperty() id!: number;
  @ApiProperty({ type: OrganizationRefDto }) organization!: OrganizationRefDto;
  @ApiProperty({ example: 'https://example.com/hooks' }) url!: string;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the current run of failed attempts began (a success ends it)',
  })
  failing_since!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabled_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) disabled_reason!: string | null;
  @ApiProperty({ description: 'Deliveries given up on in the last 24 hours' })
  failed_last_day!: number;
  @ApiProperty({ description: 'Deliveries still to be attempted (or retried)' })
  pending!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_failure_at!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Null when no answer came' })
  last_status_code!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'connect ECONNREFUSED' })
  last_error!: string | null;
}

export class FailingWebhooksResponseDto extends EnvelopeDto {
  @ApiProperty({
    type: FailingWebhookEndpointDto,
    isArray: true,
    description: 'Endpoints failing now or disabled, longest failing first (at most 100)',
  })
  data!: FailingWebhookEndpointDto[];
}

export function toFailingEndpointDto(row: FailingEndpointRow): FailingWebhookEndpointDto {
  return {
    id: Number(row.id),
    organization: { id: Number(row.organization_id), name: row.organization_name },
    url: row.url,
    is_active: row.is_active,
    failing_since: iso(row.failing_since),
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    failed_last_day: Number(row.failed_last_day),
    pending: Number(row.pending),
    last_failure_at: iso(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
  };
}

class FailedMailDto {
  @ApiProperty() id!: number;
  @ApiProperty({ type: OrganizationRefDto }) organization!: OrganizationRefDto;
  @ApiProperty({ example: 'conversation_reply' }) kind!: string;
  @ApiProperty({
    example: 'example.com',
    description: "The recipient's domain: the address itself is the organization's to see",
  })
  recipient_domain!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'When it was given up on' }) failed_at!: string;
}

class MailFailuresDto {
  @ApiProperty({ description: 'Mails given up on in the last 24 hours' }) failed_last_day!: number;
  @ApiProperty({ type: FailedMailDto, isArray: true, description: 'The newest 50' })
  mails!: FailedMailDto[];
}

export class MailFailuresResponseDto extends EnvelopeDto {
  @ApiProperty({ type: MailFailuresDto }) data!: MailFailuresDto;
}

export function toFailedMailDto(row: FailedMailRow): FailedMailDto {
  return {
    id: Number(row.id),
    organization: { id: Number(row.organization_id), name: row.organization_name },
    kind: row.kind,
    recipient_domain: row.recipient.slice(row.recipient.lastIndexOf('@') + 1).toLowerCase(),
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: new Date(row.created_at).toISOString(),
    failed_at: new Date(row.updated_at).toISOString(),
  };
}
