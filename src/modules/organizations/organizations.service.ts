import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { AuditLogService, changedFields } from '../audit/audit-log.service';
import { OrganizationsRepository, type OrganizationRow } from './organizations.repository';
import { type OrganizationRecord, toOrganizationRecord } from './organization-record';
import { type Feature, FEATURE_NAMES, type Plan, planIncludes } from './plans';

export type { OrganizationRecord };

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
  ) {}

  async create(manager: EntityManager, name: string): Promise<OrganizationRecord> {
    return toOrganizationRecord(
      await this.organizations.insert(manager, name, this.config.env.DEFAULT_PLAN),
    );
  }

  async get(organizationId: string): Promise<OrganizationRecord> {
    const organization = await this.organizations.find(organizationId);
    if (!organization) throw AppError.notFound();
    return toOrganizationRecord(organization);
  }

  async setPlan(organizationId: string, plan: Plan): Promise<OrganizationRecord> {
    return this.change(organizationId, { plan });
  }

  async setSubscriptionEnd(
    organizationId: string,
    endsAt: Date | null,
  ): Promise<OrganizationRecord> {
    return this.change(organizationId, { subscription_ends_at: endsAt });
  }

  /** Plan and subscription end together, in the caller's transaction when given one. */
  async change(
    organizationId: string,
    changes: { plan?: Plan; subscription_ends_at?: Date | null },
    manager?: EntityManager,
  ): Promise<OrganizationRecord> {
    const organization = await this.organizations.update(organizationId, changes, manager);
    if (!organization) throw AppError.notFound();
    return toOrganizationRecord(organization);
  }

  /**
   * Suspends the organization with a reason its members read (`reason`), or resumes it (null):
   * while suspended its widget routes answer 402.
   */
  async setSuspension(
    organizationId: string,
    reason: string | null,
    manager: EntityManager,
  ): Promise<OrganizationRecord> {
    const organization = await this.organizations.setSuspension(organizationId, reason, manager);
    if (!organization) throw AppError.notFound();
    return toOrganizationRecord(organization);
  }

  async updateSettings(
    organizationId: string,
    changes: {
      name?: string;
      autoAssignmentEnabled?: boolean;
      autoAssignmentCapacity?: number;
      requireTwoFactor?: boolean;
    },
  ): Promise<OrganizationRecord> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.organizations.lock(manager, organizationId);
      const organization = await this.organizations.updateSettings(
        manager,
        organizationId,
        changes,
      );
      if (!before || !organization) throw AppError.notFound();
      const settings = (row: OrganizationRow) => ({
        name: row.name,
        auto_assignment_enabled: row.auto_assignment_enabled,
        auto_assignment_capacity: row.auto_assignment_capacity,
        require_two_factor: row.require_two_factor,
      });
      const changed = changedFields(settings(before), settings(organization));
      if (Object.keys(changed.after).length > 0) {
        await this.audit.record(manager, organizationId, {
          action: 'organization.updated',
          target: { type: 'organization', id: organizationId, label: organization.name },
          changes: changed,
        });
      }
      return toOrganizationRecord(organization);
    });
  }

  /** 403 `feature_not_in_plan` unless the organization's plan includes `feature`. */
  async requireFeature(organizationId: string, feature: Feature): Promise<void> {
    const organization = await this.get(organizationId);
    if (!planIncludes(organization.plan, feature)) {
      throw new AppError(
        'feature_not_in_plan',
        `${FEATURE_NAMES[feature]} is not included in the ${organization.plan} plan.`,
        { reason: 'feature_not_in_plan' },
      );
    }
  }

  /**
   * 402 while a platform administrator has suspended the organization, or once the subscription
   * ended more than SUBSCRIPTION_GRACE_DAYS ago (widget routes).
   */
  requireActiveSubscription(organization: OrganizationRecord, now = new Date()): void {
    if (organization.suspendedAt) {
      throw new AppError(
        'organization_suspended',
        'This organization is suspended. Its chat widget is unavailable until it is resumed.',
        { reason: 'organization_suspended' },
      );
    }
    if (!organization.subscriptionEndsAt) return;
    const graceEnds =
      organization.subscriptionEndsAt.getTime() + this.config.env.SUBSCRIPTION_GRACE_DAYS * DAY_MS;
    if (now.getTime() > graceEnds) {
      throw new AppError(
        'subscription_expired',
        'The subscription of this organization has expired. Renew it to use the chat widget again.',
        { reason: 'subscription_expired' },
      );
    }
  }
}
