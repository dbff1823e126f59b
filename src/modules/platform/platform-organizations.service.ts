import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import type { PageRequest } from '../../common/http/pagination';
import {
  type OrganizationRecord,
  OrganizationsService,
} from '../organizations/organizations.service';
import type { Plan } from '../organizations/plans';
import {
  type OperatorActor,
  type PlatformOrganizationRow,
  PlatformRepository,
} from './platform.repository';
import { iso } from '../../common/time/iso';

/** What an organization's console fields were and became, for the operator log. */
function fieldsOf(
  organization: Pick<
    OrganizationRecord,
    'plan' | 'subscriptionEndsAt' | 'suspendedAt' | 'suspensionReason'
  >,
) {
  return {
    plan: organization.plan,
    subscription_ends_at: iso(organization.subscriptionEndsAt),
    suspended_at: iso(organization.suspendedAt),
    suspension_reason: organization.suspensionReason,
  };
}

/** The same of the console's own row (what it was, read here before the change). */
const fieldsOfRow = (row: PlatformOrganizationRow) =>
  fieldsOf({
    plan: row.plan,
    subscriptionEndsAt: row.subscription_ends_at,
    suspendedAt: row.suspended_at,
    suspensionReason: row.suspension_reason,
  });

function changed(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after))
    if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
  return changes;
}

/**
 * The console's organizations: search with usage, plan and subscription end, suspend and resume.
 * Each change and its operator-log line are one transaction.
 */
@Injectable()
export class PlatformOrganizationsService {
  constructor(
    private readonly repository: PlatformRepository,
    private readonly organizations: OrganizationsService,
    private readonly dataSource: DataSource,
  ) {}

  list(q: string | undefined, page: PageRequest) {
    return this.repository.organizations(q, page);
  }

  async get(id: string): Promise<PlatformOrganizationRow> {
    const row = await this.repository.organization(id);
    if (!row) throw AppError.notFound();
    return row;
  }

  async update(
    id: string,
    changes: { plan?: Plan; subscription_ends_at?: Date | null },
    actor: OperatorActor,
  ): Promise<PlatformOrganizationRow> {
    await this.dataSource.transaction(async (manager) => {
      const before = await this.get(id);
      const after = await this.organizations.change(id, changes, manager);
      await this.repository.log(manager, actor, {
        action: 'organization.updated',
        targetType: 'organization',
        targetId: id,
        changes: changed(fieldsOfRow(before), fieldsOf(after)),
      });
    });
    return this.get(id);
  }

  /** Suspends with a reason its members read (`reason`), or resumes (null). */
  async setSuspension(
    id: string,
    reason: string | null,
    actor: OperatorActor,
  ): Promise<PlatformOrganizationRow> {
    await this.dataSource.transaction(async (manager) => {
      const before = await this.get(id);
      const after = await this.organizations.setSuspension(id, reason, manager);
      await this.repository.log(manager, actor, {
        action: reason === null ? 'organization.resumed' : 'organization.suspended',
        targetType: 'organization',
        targetId: id,
        changes: changed(fieldsOfRow(before), fieldsOf(after)),
      });
    });
    return this.get(id);
  }
}
