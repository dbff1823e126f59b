import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { OrganizationsRepository, type OrganizationRow } from './organizations.repository';
import { type Feature, FEATURE_NAMES, type Plan, planIncludes } from './plans';

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly config: AppConfig,
  ) {}

  create(manager: EntityManager, name: string): Promise<OrganizationRow> {
    return this.organizations.insert(manager, name, this.config.env.DEFAULT_PLAN);
  }

  async get(organizationId: string): Promise<OrganizationRow> {
    const organization = await this.organizations.find(organizationId);
    if (!organization) throw AppError.notFound();
    return organization;
  }

  async setPlan(organizationId: string, plan: Plan): Promise<OrganizationRow> {
    return this.change(organizationId, { plan });
  }

  async setSubscriptionEnd(organizationId: string, endsAt: Date | null): Promise<OrganizationRow> {
    return this.change(organizationId, { subscription_ends_at: endsAt });
  }

  /** Plan and subscription end together, in the caller's transaction when given one. */
  async change(
    organizationId: string,
    changes: { plan?: Plan; subscription_ends_at?: Date | null },
    manager?: EntityManager,
  ): Promise<OrganizationRow> {
    const organization = await this.organizations.update(organizationId, changes, manager);
    if (!organization) throw AppError.notFound();
    return organization;
  }

  /**
   * Suspends the organization with a reason its members read (`reason`), or resumes it (null):
   * while suspended its widget routes answer 402.
   */
  async setSuspension(
    organizationId: string,
    reason: string | null,
    manager: EntityManager,
  ): Promise<OrganizationRow> {
    const organization = await this.organizations.setSuspension(organizationId, reason, manager);
    if (!organization) throw AppError.notFound();
    return organization;
  }

  async updateSettings(
    organizationId: string,
    changes: { name?: string; autoAssignmentEnabled?: boolean; autoAssignmentCapacity?: number },
  ): Promise<OrganizationRow> {
    const organization = await this.organizations.updateSettings(organizationId, changes);
    if (!organization) throw AppError.notFound();
    return organization;
  }

  /** 403 `feature_not_in_plan` unless the organization's plan includes `feature`. */
  async requireFeature(organizationId: string, feature: Feature): Promise<void> {
    const organization = await this.get(organizationId);
    if (!planIncludes(organization.plan, feature)) {
      throw new AppError(
        'feature_not_in_plan',
        `${FEATURE_NAMES[feature]} is not included in the ${organization.plan} plan.`,
      );
    }
  }

  /**
   * 402 while a platform administrator has suspended the organization, or once the subscription
   * ended more than SUBSCRIPTION_GRACE_DAYS ago (widget routes).
   */
  requireActiveSubscription(organization: OrganizationRow, now = new Date()): void {
    if (organization.suspended_at) {
      throw new AppError(
        'organization_suspended',
        'This organization is suspended. Its chat widget is unavailable until it is resumed.',
      );
    }
    if (!organization.subscription_ends_at) return;
    const graceEnds =
      organization.subscription_ends_at.getTime() +
      this.config.env.SUBSCRIPTION_GRACE_DAYS * DAY_MS;
    if (now.getTime() > graceEnds) {
      throw new AppError(
        'subscription_expired',
        'The subscription of this organization has expired. Renew it to use the chat widget again.',
      );
    }
  }
}
