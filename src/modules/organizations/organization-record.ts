import type { OrganizationRow } from './organizations.repository';
import type { Plan } from './plans';

/**
 * An organization as the other features see it (issue 32, point 7): what `OrganizationsService`
 * answers, mapped once from the table's row here, so no feature but this one depends on
 * `OrganizationRow`.
 */
export interface OrganizationRecord {
  id: string;
  name: string;
  plan: Plan;
  subscriptionEndsAt: Date | null;
  /** Set by a platform administrator: the widget answers 402 and members see the reason. */
  suspendedAt: Date | null;
  suspensionReason: string | null;
  autoAssignmentEnabled: boolean;
  autoAssignmentCapacity: number;
  /** Every member must have two-factor authentication (issue 28). */
  requireTwoFactor: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const toOrganizationRecord = (row: OrganizationRow): OrganizationRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  subscriptionEndsAt: row.subscription_ends_at,
  suspendedAt: row.suspended_at,
  suspensionReason: row.suspension_reason,
  autoAssignmentEnabled: row.auto_assignment_enabled,
  autoAssignmentCapacity: row.auto_assignment_capacity,
  requireTwoFactor: row.require_two_factor,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
