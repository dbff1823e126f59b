import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PageRequest } from '../../common/http/pagination';
import { sql, type SqlExecutor } from '../../database/sql';
import type { Plan } from '../organizations/plans';

/** An organization as the platform console lists it, with its usage. */
export interface PlatformOrganizationRow {
  id: string;
  name: string;
  plan: Plan;
  subscription_ends_at: Date | null;
  suspended_at: Date | null;
  suspension_reason: string | null;
  created_at: Date;
  members: string;
  sites: string;
  conversations_this_month: string;
  storage_bytes: string;
}

/** Who did something on the console, and from where. */
export interface OperatorActor {
  type: 'user' | 'cli';
  userId?: string;
  email?: string;
  ip?: string;
  requestId?: string;
}

export interface OperatorLogEntry {
  action: string;
  targetType: 'organization' | 'job' | 'platform_admin';
  targetId: string;
  changes: Record<string, unknown>;
}

export interface InstanceRow {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  workers_enabled: boolean;
  started_at: Date;
  last_seen_at: Date;
}

/** Escapes LIKE's wildcards so a search term matches itself. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The platform console's reads and writes. It is the one place that reads across every tenant
 * (that is its job): the organizations with their usage, the administrators, the operator log
 * and the instances' heartbeats. Changes to an organization itself go through
 * OrganizationsService, in the transaction that also writes the log entry.
 */
@Injectable()
export class PlatformRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether the user (an active login) is an administrator by `listed` or by a grant. */
  async isAdmin(userId: string, listed: string[]): Promise<boolean> {
    const [row] = await sql<{ admin: boolean }>(
      this.dataSource,
      `SELECT EXISTS (
         SELECT 1 FROM users u
          WHERE u.id = $1 AND u.removed_at IS NULL
            AND (lower(u.email) = ANY($2::text[])
                 OR EXISTS (SELECT 1 FROM platform_admins p WHERE p.email = lower(u.email)))
       ) AS admin`,
      [userId, listed],
    );
    return row.admin;
  }

  /** Grants (true when newly granted) or revokes (true when it was granted). */
  async grant(executor: SqlExecutor, email: string, grantedBy: string): Promise<boolean> {
    const rows = await sql(
      executor,
      `INSERT INTO platform_admins (email, granted_by) VALUES (lower($1), $2)
       ON CONFLICT DO NOTHING RETURNING email`,
      [email, grantedBy],
    );
    return rows.length > 0;
  }

  async revoke(executor: SqlExecutor, email: string): Promise<boolean> {
    const rows = await sql(
      executor,
      `DELETE FROM platform_admins WHERE email = lower($1) RETURNING email`,
      [email],
    );
    return rows.length > 0;
  }

  /** One line of the operator log (append-only: the database refuses updates and deletes). */
  async log(executor: SqlExecutor, actor: OperatorActor, entry: OperatorLogEntry): Promise<void> {
    await sql(
      executor,
      `INSERT INTO platform_operator_log
         (actor_type, actor_id, actor_email, action, target_type, target_id, changes, ip, request_id)
       VALUES ($1, $2, COALESCE($3, (SELECT email FROM users WHERE id = $2)), $4, $5, $6, $7, $8, $9)`,
      [
        actor.type,
        actor.userId ?? null,
        actor.email ?? null,
        entry.action,
        entry.targetType,
        entry.targetId,
        JSON.stringify(entry.changes),
        actor.ip ?? null,
        actor.requestId ?? null,
      ],
    );
  }

  private static readonly ORGANIZATION = `
    SELECT o.id, o.name, o.plan, o.subscription_ends_at, o.suspended_at, o.suspension_reason,
           o.created_at,
           (SELECT count(*) FROM users u
             WHERE u.organization_id = o.id AND u.removed_at IS NULL) AS members,
           (SELECT count(*) FROM sites s WHERE s.organization_id = o.id) AS sites,
           (SELECT count(*) FROM conversations c
             WHERE c.organization_id = o.id
               AND c.started_at >= date_trunc('month', now())) AS conversations_this_month,
           (SELECT COALESCE(sum(a.size), 0) FROM attachments a
             WHERE a.organization_id = o.id) AS storage_bytes
      FROM organizations o`;

  /** `q` matches the name or a member's address (any part, any case) or the exact id. */
  private static readonly MATCH = `($1::text IS NULL OR o.name ILIKE $1 OR o.id::text = $2
    OR EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.removed_at IS NULL
               AND u.email ILIKE $1))`;

  async organizations(
    q: string | undefined,
    page: PageRequest,
  ): Promise<{ rows: PlatformOrganizationRow[]; total: number }> {
    const term = q ? likeTerm(q) : null;
    const [rows, [count]] = await Promise.all([
      sql<PlatformOrganizationRow>(
        this.dataSource,
        `${PlatformRepository.ORGANIZATION} WHERE ${PlatformRepository.MATCH}
          ORDER BY o.id DESC LIMIT $3 OFFSET $4`,
        [term, q ?? null, page.perPage, page.offset],
      ),
      sql<{ total: string }>(
        this.dataSource,
        `SELECT count(*) AS total FROM organizations o WHERE ${PlatformRepository.MATCH}`,
        [term, q ?? null],
      ),
    ]);
    return { rows, total: Number(count.total) };
  }

  async organization(id: string): Promise<PlatformOrganizationRow | undefined> {
    const rows = await sql<PlatformOrganizationRow>(
      this.dataSource,
      `${PlatformRepository.ORGANIZATION} WHERE o.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** This instance is alive; instances silent for a day are forgotten. */
  async heartbeat(instance: Omit<InstanceRow, 'last_seen_at'>): Promise<void> {
    await sql(
      this.dataSource,
      `WITH forgotten AS (
         DELETE FROM service_instances WHERE last_seen_at < now() - interval '1 day'
       )
       INSERT INTO service_instances (id, hostname, pid, version, workers_enabled, started_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET last_seen_at = now()`,
      [
        instance.id,
        instance.hostname,
        instance.pid,
        instance.version,
        instance.workers_enabled,
        instance.started_at,
      ],
    );
  }

  async forgetInstance(id: string): Promise<void> {
    await sql(this.dataSource, `DELETE FROM service_instances WHERE id = $1`, [id]);
  }

  /** Instances heard from within `withinSeconds`, oldest first. */
  instances(withinSeconds: number): Promise<InstanceRow[]> {
    return sql<InstanceRow>(
      this.dataSource,
      `SELECT * FROM service_instances
        WHERE last_seen_at > now() - $1 * interval '1 second'
        ORDER BY started_at, id`,
      [withinSeconds],
    );
  }
}
