import { Injectable } from '@nestjs/common';
import { query, sql, type SqlExecutor } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { Plan } from './plans';

export interface OrganizationRow {
  id: string;
  name: string;
  plan: Plan;
  subscription_ends_at: Date | null;
  /** Set by a platform administrator: the widget answers 402 and members see the reason. */
  suspended_at: Date | null;
  suspension_reason: string | null;
  auto_assignment_enabled: boolean;
  auto_assignment_capacity: number;
  /** Every member must have two-factor authentication (issue 28). */
  require_two_factor: boolean;
  created_at: Date;
  updated_at: Date;
}

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, name: string, plan: Plan): Promise<OrganizationRow> {
    const rows = await sql(
      manager,
      query<OrganizationRow>`INSERT INTO organizations (name, plan) VALUES ($1, $2) RETURNING *`,
      [name, plan],
    );
    return rows[0];
  }

  async find(organizationId: string): Promise<OrganizationRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<OrganizationRow>`SELECT * FROM organizations WHERE id = $1`,
      [organizationId],
    );
    return rows[0];
  }

  async update(
    organizationId: string,
    changes: { plan?: Plan; subscription_ends_at?: Date | null },
    executor: SqlExecutor = this.dataSource,
  ): Promise<OrganizationRow | undefined> {
    const rows = await sql(
      executor,
      query<OrganizationRow>`UPDATE organizations SET
         plan = COALESCE($2, plan),
         subscription_ends_at = CASE WHEN $3::boolean THEN $4::timestamptz ELSE subscription_ends_at END,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        organizationId,
        changes.plan ?? null,
        'subscription_ends_at' in changes,
        changes.subscription_ends_at ?? null,
      ],
    );
    return rows[0];
  }

  /** Suspends (`reason` given) or resumes (null) the organization. */
  async setSuspension(
    organizationId: string,
    reason: string | null,
    executor: SqlExecutor,
  ): Promise<OrganizationRow | undefined> {
    const rows = await sql(
      executor,
      query<OrganizationRow>`UPDATE organizations SET
         suspended_at = CASE WHEN $2::text IS NULL THEN NULL ELSE COALESCE(suspended_at, now()) END,
         suspension_reason = $2, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [organizationId, reason],
    );
    return rows[0];
  }

  /** The settings an owner or admin edits in the dashboard. */
  /** The organization's row, locked until the caller's transaction ends. */
  async lock(manager: EntityManager, organizationId: string) {
    const rows = await sql(
      manager,
      query<OrganizationRow>`SELECT * FROM organizations WHERE id = $1 FOR UPDATE`,
      [organizationId],
    );
    return rows[0] as OrganizationRow | undefined;
  }

  async updateSettings(
    manager: EntityManager,
    organizationId: string,
    changes: {
      name?: string;
      autoAssignmentEnabled?: boolean;
      autoAssignmentCapacity?: number;
      requireTwoFactor?: boolean;
    },
  ): Promise<OrganizationRow | undefined> {
    const rows = await sql(
      manager,
      query<OrganizationRow>`UPDATE organizations SET name = COALESCE($2, name),
         auto_assignment_enabled = COALESCE($3, auto_assignment_enabled),
         auto_assignment_capacity = COALESCE($4, auto_assignment_capacity),
         require_two_factor = COALESCE($5, require_two_factor), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        organizationId,
        changes.name ?? null,
        changes.autoAssignmentEnabled ?? null,
        changes.autoAssignmentCapacity ?? null,
        changes.requireTwoFactor ?? null,
      ],
    );
    return rows[0];
  }
}
