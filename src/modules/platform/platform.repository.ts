import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PageRequest } from '../../common/http/pagination';
import { handTyped, query, sql, type SqlExecutor } from '../../database/sql';
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

/** A login as `admin:grant` and `admin:revoke` name it, by its address. */
export interface AdminLoginRow {
  id: string;
  email: string;
  email_verified_by_link_at: Date | null;
}

/** Who did something on the console (a member: its login is looked up), and from where. */
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

/** A webhook endpoint in a failure streak or disabled, with its last failed attempt. */
export interface FailingEndpointRow {
  id: string;
  organization_id: string;
  organization_name: string;
  url: string;
  is_active: boolean;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failed_last_day: string;
  pending: string;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
}

/** A mail given up on. */
export interface FailedMailRow {
  id: string;
  organization_id: string;
  organization_name: string;
  kind: string;
  recipient: string;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
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

  /**
   * Whether the member (active) is an administrator: its login was granted, or `listed` names the
   * address of a login its person signed up for and confirmed by a mailed link. An address alone
   * proves nothing: an owner makes a member at any address, and anyone registers one unconfirmed.
   */
  async isAdmin(userId: string, listed: string[]): Promise<boolean> {
    const [row] = await sql(
      this.dataSource,
      query<{ admin: boolean }>`SELECT EXISTS (
         SELECT 1 FROM users u JOIN logins l ON l.id = u.login_id
          WHERE u.id = $1 AND u.removed_at IS NULL
            AND (EXISTS (SELECT 1 FROM platform_admins p WHERE p.login_id = l.id)
                 OR (l.origin = 'signup' AND l.email_verified_by_link_at IS NOT NULL
                     AND lower(l.email) = ANY($2::text[])))
       ) AS admin`,
      [userId, listed],
    );
    return row.admin;
  }

  /** The login of an address (locked until the caller's transaction ends), if any. */
  async loginByEmail(executor: SqlExecutor, email: string): Promise<AdminLoginRow | undefined> {
    const rows = await sql(
      executor,
      query<AdminLoginRow>`SELECT id, email, email_verified_by_link_at FROM logins
        WHERE lower(email) = lower($1) FOR SHARE`,
      [email],
    );
    return rows[0];
  }

  /** Grants the login (true when newly granted) or revokes it (true when it was granted). */
  async grant(executor: SqlExecutor, loginId: string, grantedBy: string): Promise<boolean> {
    const rows = await sql(
      executor,
      query<{
        login_id: string;
      }>`INSERT INTO platform_admins (login_id, granted_by) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING login_id`,
      [loginId, grantedBy],
    );
    return rows.length > 0;
  }

  async revoke(executor: SqlExecutor, loginId: string): Promise<boolean> {
    const rows = await sql(
      executor,
      query<{
        login_id: string;
      }>`DELETE FROM platform_admins WHERE login_id = $1 RETURNING login_id`,
      [loginId],
    );
    return rows.length > 0;
  }

  /**
   * One line of the operator log (append-only: the database refuses updates and deletes). A
   * member's line names it (`actor_id`) and its login (`actor_login_id`, what administrator
   * rights follow); the address is copied only to read.
   */
  async log(executor: SqlExecutor, actor: OperatorActor, entry: OperatorLogEntry): Promise<void> {
    await sql(
      executor,
      query`INSERT INTO platform_operator_log
         (actor_type, actor_id, actor_login_id, actor_email, action, target_type, target_id, changes,
          ip, request_id)
       VALUES ($1, $2, (SELECT login_id FROM users WHERE id = $2),
               COALESCE($3, (SELECT email FROM users WHERE id = $2)), $4, $5, $6, $7, $8, $9)`,
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

  async organizations(
    q: string | undefined,
    page: PageRequest,
  ): Promise<{ rows: PlatformOrganizationRow[]; total: number }> {
    const term = q ? likeTerm(q) : null;
    const [rows, [count]] = await Promise.all([
      sql(this.dataSource, ORGANIZATIONS, [term, q ?? null, null, page.perPage, page.offset]),
      sql(
        this.dataSource,
        query<{ total: string }>`SELECT count(*) AS total FROM organizations o
       WHERE ($1::text IS NULL OR o.name ILIKE $1 OR o.id::text = $2
         OR EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.removed_at IS NULL
                    AND u.email ILIKE $1))`,
        [term, q ?? null],
      ),
    ]);
    return { rows, total: Number(count.total) };
  }

  async organization(id: string): Promise<PlatformOrganizationRow | undefined> {
    const rows = await sql(this.dataSource, ORGANIZATIONS, [null, null, id, 1, 0]);
    return rows[0];
  }

  /**
   * Endpoints failing now (a streak started by a failed attempt and not yet ended by a success)
   * or disabled, longest failing first, with their failed deliveries of the last day, the
   * deliveries still pending and the last attempt that failed.
   */
  failingEndpoints(limit: number): Promise<FailingEndpointRow[]> {
    return sql(
      this.dataSource,
      query<FailingEndpointRow>`SELECT e.id, e.organization_id, o.name AS organization_name, e.url, e.is_active,
              e.failing_since, e.disabled_at, e.disabled_reason,
              COALESCE((SELECT count(*) FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND d.status = 'failed'
                  AND d.created_at > now() - interval '1 day'), 0) AS failed_last_day,
              COALESCE((SELECT count(*) FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND d.status = 'pending'), 0) AS pending,
              last.started_at AS last_attempt_at, last.status_code AS last_status_code,
              last.error AS last_error
         FROM webhook_endpoints e
         JOIN organizations o ON o.id = e.organization_id
         LEFT JOIN LATERAL (
           SELECT a.started_at, a.status_code, a.error
             FROM webhook_deliveries d
             JOIN webhook_attempts a ON a.delivery_id = d.id
            WHERE d.endpoint_id = e.id AND d.attempts > 0
              AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)
            ORDER BY d.created_at DESC, a.attempt DESC
            LIMIT 1) last ON true
        WHERE e.failing_since IS NOT NULL OR e.disabled_at IS NOT NULL
        ORDER BY coalesce(e.failing_since, e.disabled_at), e.id
        LIMIT $1`,
      [limit],
    );
  }

  /** The newest mails given up on, and how many failed in the last day. */
  async failedMails(limit: number): Promise<{ rows: FailedMailRow[]; lastDay: number }> {
    const [rows, [count]] = await Promise.all([
      sql(
        this.dataSource,
        query<FailedMailRow>`SELECT m.id, m.organization_id, o.name AS organization_name, m.kind, m.recipient,
                m.attempts, m.last_error, m.created_at, m.updated_at
           FROM mail_log m
           JOIN organizations o ON o.id = m.organization_id
          WHERE m.status = 'failed'
          ORDER BY m.updated_at DESC, m.id DESC
          LIMIT $1`,
        [limit],
      ),
      sql(
        this.dataSource,
        query<{ n: string }>`SELECT count(*) AS n FROM mail_log
          WHERE status = 'failed' AND updated_at > now() - interval '1 day'`,
      ),
    ]);
    return { rows, lastDay: Number(count.n) };
  }

  /** This instance is alive; instances silent for a day are forgotten. */
  async heartbeat(instance: Omit<InstanceRow, 'last_seen_at'>): Promise<void> {
    await sql(
      this.dataSource,
      query`WITH forgotten AS (
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
    await sql(this.dataSource, query`DELETE FROM service_instances WHERE id = $1`, [id]);
  }

  /** Instances heard from within `withinSeconds`, oldest first. */
  instances(withinSeconds: number): Promise<InstanceRow[]> {
    return sql(
      this.dataSource,
      query<InstanceRow>`SELECT * FROM service_instances
        WHERE last_seen_at > now() - $1 * interval '1 second'
        ORDER BY started_at, id`,
      [withinSeconds],
    );
  }
}

/**
 * Organizations with their usage, newest first: those `$1`/`$2` match (the name or a member's
 * address (any part, any case, `$1` a LIKE pattern) or the exact id `$2`; all when `$1` is null),
 * or the one whose id is `$3`; a page of `$4` from `$5`. The console's list and its detail.
 */
const ORGANIZATIONS = handTyped<PlatformOrganizationRow>`SELECT o.id, o.name, o.plan, o.subscription_ends_at, o.suspended_at, o.suspension_reason,
     o.created_at,
     (SELECT count(*) FROM users u
       WHERE u.organization_id = o.id AND u.removed_at IS NULL) AS members,
     (SELECT count(*) FROM sites s WHERE s.organization_id = o.id) AS sites,
     (SELECT count(*) FROM conversations c
       WHERE c.organization_id = o.id
         AND c.started_at >= date_trunc('month', now())) AS conversations_this_month,
     (SELECT COALESCE(sum(a.size), 0) FROM attachments a
       WHERE a.organization_id = o.id) AS storage_bytes
   FROM organizations o
   WHERE ($1::text IS NULL OR o.name ILIKE $1 OR o.id::text = $2
     OR EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.removed_at IS NULL
                AND u.email ILIKE $1))
     AND ($3::bigint IS NULL OR o.id = $3)
   ORDER BY o.id DESC LIMIT $4 OFFSET $5`;
