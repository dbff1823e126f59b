import type { OrganizationRow } from './organizations.repository';
import { PLAN_FEATURES } from './plans';

export function toOrganizationDto(organization: OrganizationRow) {
  return {
    id: Number(organization.id),
    name: organization.name,
    plan: organization.plan,
    features: [...PLAN_FEATURES[organization.plan]],
    subscription_ends_at: organization.subscription_ends_at
      ? new Date(organization.subscription_ends_at).toISOString()
      : null,
  };
}
