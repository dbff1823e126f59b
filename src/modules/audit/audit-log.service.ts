import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { currentRequest } from '../../common/http/request-context';
import { query, sql, type SqlExecutor } from '../../database/sql';
import { type AuditFilter, type AuditLogRow, AuditLogRepository } from './audit-log.repository';

/** Who did it: a member, an API key, or the service itself (jobs, retention). */
export interface AuditActor {
  type: 'user' | 'api_key' | 'system';
  id?: string | null;
  /** Looked up from `users` when a user's id is given without it. */
  name?: string | null;
}

export interface AuditEntry {
  /** `<target type>.<verb>`, e.g. `api_key.created`, `member.role_changed`, `visitor.erased`. */
  action: string;
  target: { type: string; id?: string | number | null; label?: string | null };
  /** What changed; secrets (any key naming a secret, password, token or key hash) are masked. */
  changes?: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null };
  /** Defaults to the principal of the HTTP request being served, else `fallbackActor`. */
  actor?: AuditActor;
  /** Who acted when no principal is known (a sign-up, a login): else `system`. */
  fallbackActor?: AuditActor;
}

export const MASKED = '[masked]';
const SECRET_KEY = /secret|password|token|key_hash|plain_text|api_key$|credential|private_key/i;

/** A copy of `value` with the value of every secret-looking key replaced by `[masked]`. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
        key,
        SECRET_KEY.test(key) && inner !== null && inner !== undefined ? MASKED : maskSecrets(inner),
      ]),
    );
  }
  return value;
}

/**
 * Only the fields that differ between `before` and `after` (both sides), for an update's
 * `changes`: `{ before: { role: 'agent' }, after: { role: 'admin' } }`.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const keys = Object.keys(after).filter(
    (key) => key in before && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}

/**
 * The organization's audit log (DESIGN section 12). `record` writes one row with the executor it
 * is given: pass the transaction's EntityManager and the row commits or rolls back with the
 * change. The actor, client address, user agent and request id come from the request being
 * served (see common/http/request-context.ts) unless `entry.actor` names one.
 */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly repository: AuditLogRepository,
    private readonly dataSource: DataSource,
  ) {}

  async record(executor: SqlExecutor, organizationId: string, entry: AuditEntry): Promise<void> {
    const request = currentRequest();
    const actor: AuditActor =
      entry.actor ??
      (request?.agent
        ? { type: 'user', id: request.agent.userId }
        : request?.apiKey
          ? { type: 'api_key', id: request.apiKey.id, name: request.apiKey.name }
          : (entry.fallbackActor ?? { type: 'system', name: 'system' }));
    const userAgent = request?.headers['user-agent'];
    await this.repository.insert(executor, organizationId, {
      actorType: actor.type,
      actorId: actor.id ?? null,
      actorName: actor.name ?? null,
      action: entry.action,
      targetType: entry.target.type,
      targetId:
        entry.target.id === undefined || entry.target.id === null ? null : String(entry.target.id),
      targetLabel: entry.target.label ?? null,
      changes: maskSecrets(entry.changes ?? {}) as Record<string, unknown>,
      ip: request?.ip ?? null,
      userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
      requestId: request?.id === undefined ? null : String(request.id),
    });
  }

  page(organizationId: string, filter: AuditFilter, page: { perPage: number; offset: number }) {
    return this.repository.page(organizationId, filter, page);
  }

  all(organizationId: string, filter: AuditFilter, limit: number): Promise<AuditLogRow[]> {
    return this.repository.all(organizationId, filter, limit);
  }

  /** The retention job: rows older than `days` go, in a transaction the trigger lets delete. */
  async deleteOlderThan(days: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await sql(manager, query`SET LOCAL audit_log.retention = 'on'`);
      return this.repository.deleteOlderThan(manager, days);
    });
  }
}
