import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, query, sql, type SqlExecutor } from '../../database/sql';

export type AuditActorType = 'user' | 'api_key' | 'system';

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
  changes: Record<string, unknown>;
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

const COLUMNS = `id, organization_id, actor_type, actor_id, actor_name, action, target_type,
  target_id, target_label, changes, ip, user_agent, request_id, created_at`;

function whereOf(organizationId: string, filter: AuditFilter) {
  const parameters: unknown[] = [organizationId];
  const clauses = ['organization_id = $1'];
  const add = (clause: string, value: unknown) => {
    parameters.push(value);
    clauses.push(clause.replace('?', `$${parameters.length}`));
  };
  if (filter.actorId !== undefined) add('actor_id = ?', filter.actorId);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
  if (filter.from !== undefined) add('created_at >= ?', filter.from);
  if (filter.to !== undefined) add('created_at <= ?', filter.to);
  return { where: clauses.join(' AND '), parameters };
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
      changes: Record<string, unknown>;
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
    const { where, parameters } = whereOf(organizationId, filter);
    // Put together from the filter given (unchecked); LIMIT and OFFSET follow its parameters.
    const next = parameters.length;
    return pageOf<AuditLogRow>(
      this.dataSource,
      {
        rows: `SELECT ${COLUMNS} FROM audit_log WHERE ${where}
          ORDER BY id DESC LIMIT $${next + 1} OFFSET $${next + 2}`,
        total: `SELECT count(*) AS total FROM audit_log WHERE ${where}`,
      },
      parameters,
      page,
    );
  }

  all(organizationId: string, filter: AuditFilter, limit: number): Promise<AuditLogRow[]> {
    const { where, parameters } = whereOf(organizationId, filter);
    return sql<AuditLogRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM audit_log WHERE ${where} ORDER BY id DESC LIMIT ${Math.trunc(limit)}`,
      parameters,
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
