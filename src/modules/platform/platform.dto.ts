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
import type { InstanceRow, PlatformOrganizationRow } from './platform.repository';

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

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

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
