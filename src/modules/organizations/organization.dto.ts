import { ApiProperty } from '@nestjs/swagger';
import type { OrganizationRecord } from './organization-record';
import { FEATURES, PLAN_FEATURES, PLANS } from './plans';

export class OrganizationDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: PLANS }) plan!: string;
  @ApiProperty({ enum: FEATURES, isArray: true }) features!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) subscription_ends_at!:
    string | null;
  @ApiProperty({
    description: 'Set while a platform administrator has suspended the organization',
    type: String,
    format: 'date-time',
    nullable: true,
  })
  suspended_at!: string | null;
  @ApiProperty({
    description: 'Why it is suspended, for its members',
    type: String,
    nullable: true,
  })
  suspension_reason!: string | null;
}

export function toOrganizationDto(organization: OrganizationRecord): OrganizationDto {
  return {
    id: Number(organization.id),
    name: organization.name,
    plan: organization.plan,
    features: [...PLAN_FEATURES[organization.plan]],
    subscription_ends_at: organization.subscriptionEndsAt
      ? new Date(organization.subscriptionEndsAt).toISOString()
      : null,
    suspended_at: organization.suspendedAt
      ? new Date(organization.suspendedAt).toISOString()
      : null,
    suspension_reason: organization.suspensionReason,
  };
}
