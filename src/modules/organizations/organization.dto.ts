import { ApiProperty } from '@nestjs/swagger';
import type { OrganizationRow } from './organizations.repository';
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

export function toOrganizationDto(organization: OrganizationRow): OrganizationDto {
  return {
    id: Number(organization.id),
    name: organization.name,
    plan: organization.plan,
    features: [...PLAN_FEATURES[organization.plan]],
    subscription_ends_at: organization.subscription_ends_at
      ? new Date(organization.subscription_ends_at).toISOString()
      : null,
    suspended_at: organization.suspended_at
      ? new Date(organization.suspended_at).toISOString()
      : null,
    suspension_reason: organization.suspension_reason,
  };
}
