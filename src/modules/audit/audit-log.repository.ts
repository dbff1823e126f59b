import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, query, sql, type SqlExecutor } from '../../database/sql';

export type AuditActorType = 'user' | 'api_key' | 'system';

/** What an entry changed (`audit_log.changes`, written only by `insert`: always an object). */
export type AuditChanges = Record<string, unknown>;

export interface AuditLogRow {
  id: string;
  organization_id: string;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  changes: AuditChanges;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: Date;
}

export interface AuditFilter {
  actorId?: string;
  action?: string;
  targetType?: string;
  from?: Date;
  to?: Date;
}

/** The filter's parameters after the organization's ($2 to $6), NULL for a filter not given. */
function filterParameters(organizationId: string, filter: AuditFilter): unknown[] {
  return [
    organizationId,
    filter.actorId ?? null,
    filter.action ?? null,
    filter.targetType ?? null,
    filter.from ?? null,
    filter.to ?? null,
  ];
}

@Injectable()
export class AuditLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    executor: SqlExecutor,
    organizationId: string,
    row: {
      actorType: string;
      actorId: string | null;
      actorName: string | null;
      action: string;
      targetType: string;
      targetId: string | null;
      targetLabel: string | null;
      changes: AuditChanges;
      ip: string | null;
      userAgent: string | null;
      requestId: string | null;
    },
  ): Promise<void> {
    await sql(
      executor,
      query`INSERT INTO audit_log (organization_id, actor_type, actor_id, actor_name, action,
         target_type, target_id, target_label, changes, ip, user_agent, request_id)
       VALUES ($1, $2, $3,
         COALESCE($4, CASE WHEN $2 = 'user'
           THEN (SELECT name FROM users WHERE id = $3::bigint AND organization_id = $1) END),
         $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        organizationId,
        row.actorType,
        row.actorId,
        row.actorName,
        row.action,
        row.targetType,
        row.targetId,
        row.targetLabel,
        JSON.stringify(row.changes),
        row.ip,
        row.userAgent,
        row.requestId,
      ],
    );
  }

  page(
    organizationId: string,
    filter: AuditFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: AuditLogRow[]; total: number }> {
    // A filter not given is NULL and folds away: unnamed statements are planned with the values.
    return pageOf(
      this.dataSource,
      {
        rows: query<AuditLogRow>`SELECT id, organization_id, actor_type, actor_id, actor_name, action, target_type,
             target_id, target_label, changes, ip, user_agent, request_id, created_at
           FROM audit_log WHERE organization_id = $1 AND ($2::bigint IS NULL OR actor_id = $2)
             AND ($3::text IS NULL OR action = $3) AND ($4::text IS NULL OR target_type = $4)
             AND ($5::timestamptz IS NULL OR created_at >= $5)
             AND ($6::timestamptz IS NULL OR created_at <= $6)
           ORDER BY id DESC LIMIT $7 OFFSET $8`,
        total: query<{ total: string }>`SELECT count(*) AS total
           FROM audit_log WHERE organization_id = $1 AND ($2::bigint IS NULL OR actor_id = $2)
             AND ($3::text IS NULL OR action = $3) AND ($4::text IS NULL OR target_type = $4)
             AND ($5::timestamptz IS NULL OR created_at >= $5)
             AND ($6::timestamptz IS NULL OR created_at <= $6)`,
      },
      filterParameters(organizationId, filter),
      page,
    );
  }

  all(organizationId: string, filter: AuditFilter, limit: number): Promise<AuditLogRow[]> {
    return sql(
      this.dataSource,
      query<AuditLogRow>`SELECT id, organization_id, actor_type, actor_id, actor_name, action, target_type,
           target_id, target_label, changes, ip, user_agent, request_id, created_at
         FROM audit_log WHERE organization_id = $1 AND ($2::bigint IS NULL OR actor_id = $2)
           AND ($3::text IS NULL OR action = $3) AND ($4::text IS NULL OR target_type = $4)
           AND ($5::timestamptz IS NULL OR created_at >= $5)
           AND ($6::timestamptz IS NULL OR created_at <= $6)
         ORDER BY id DESC LIMIT $7`,
      [...filterParameters(organizationId, filter), Math.trunc(limit)],
    );
  }

  /** Only inside the retention job's transaction (`audit_log.retention` set). */
  async deleteOlderThan(executor: SqlExecutor, days: number): Promise<number> {
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`DELETE FROM audit_log WHERE created_at < now() - make_interval(days => $1) RETURNING id`,
      [days],
    );
    return rows.length;
  }
}
