import { Injectable } from '@nestjs/common';
import { pageOf, sql } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '../../common/auth/auth.types';

export interface UserRow {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  password_hash: string;
  role: Role;
  status: 'online' | 'away' | 'offline';
  last_seen_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, organization_id, name, email, password_hash, role, status, last_seen_at, created_at';

/** Agent accounts (`users`). Every read names the organization, except the login lookup. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    organizationId: string,
    user: { name: string; email: string; passwordHash: string; role: Role },
  ): Promise<UserRow> {
    const rows = await sql<UserRow>(
      manager,
      `INSERT INTO users (organization_id, name, email, password_hash, role)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [organizationId, user.name, user.email, user.passwordHash, user.role],
    );
    return rows[0];
  }

  /** Login is the one lookup without a tenant: an email address names one active account. */
  async findActiveByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await sql<UserRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) AND removed_at IS NULL`,
      [email],
    );
    return rows[0];
  }

  async find(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<UserRow | undefined> {
    const rows = await sql<UserRow>(
      manager,
      `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL`,
      [organizationId, userId],
    );
    return rows[0];
  }

  /**
   * A page of members, optionally of one role; with the total for that filter. Newest first
   * (the public API) unless `oldestFirst` (the team settings list the owner first).
   */
  async page(
    organizationId: string,
    filter: { role?: Role; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: UserRow[]; total: number }> {
    return pageOf<UserRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'users',
        where: `organization_id = $1 AND removed_at IS NULL AND ($2::text IS NULL OR role = $2)`,
        parameters: [organizationId, filter.role ?? null],
        orderBy: filter.oldestFirst ? 'id' : 'id DESC',
      },
      page,
    );
  }

  /** Locks the organization's owners, so two concurrent demotions cannot leave none. */
  async lockOwners(manager: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await sql<{ id: string }>(
      manager,
      `SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' AND removed_at IS NULL FOR UPDATE`,
      [organizationId],
    );
    return rows.map((row) => row.id);
  }

  async update(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    changes: { name?: string; role?: Role },
  ): Promise<UserRow | undefined> {
    const rows = await sql<UserRow>(
      manager,
      `UPDATE users SET name = COALESCE($3, name), role = COALESCE($4, role), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL RETURNING ${COLUMNS}`,
      [organizationId, userId, changes.name ?? null, changes.role ?? null],
    );
    return rows[0];
  }

  /** A new password hash; `expected` guards a rehash against a password changed meanwhile. */
  async setPasswordHash(
    manager: EntityManager | undefined,
    organizationId: string,
    userId: string,
    passwordHash: string,
    expected?: string,
  ): Promise<boolean> {
    const rows = await sql<{ id: string }>(
      manager ?? this.dataSource,
      `UPDATE users SET password_hash = $3, updated_at = now()
        WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL
          AND ($4::text IS NULL OR password_hash = $4) RETURNING id`,
      [organizationId, userId, passwordHash, expected ?? null],
    );
    return rows.length > 0;
  }

  async remove(manager: EntityManager, organizationId: string, userId: string): Promise<boolean> {
    const rows = await sql<{ id: string }>(
      manager,
      `UPDATE users SET removed_at = now(), status = 'offline', updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL RETURNING id`,
      [organizationId, userId],
    );
    if (rows.length > 0)
      await manager.query(
        `DELETE FROM agent_sessions
         WHERE user_id = $1 AND user_id IN (SELECT id FROM users WHERE organization_id = $2)`,
        [userId, organizationId],
      );
    return rows.length > 0;
  }

  /**
   * Sets the agent's presence and when it was last seen; also answers the status before.
   * `status` null is a connect: `away` when the member chose Away, else `online`. `awayChosen`
   * null keeps the member's choice (connects and disconnects do not change it).
   */
  async setPresence(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    change: { status: 'online' | 'away' | 'offline' | null; awayChosen: boolean | null },
  ): Promise<{ status: string; last_seen_at: Date; previous: string } | undefined> {
    const rows = await sql<{ status: string; last_seen_at: Date; previous: string }>(
      manager,
      `UPDATE users u SET
         status = COALESCE($3::text, CASE WHEN COALESCE($4::boolean, u.away_chosen) THEN 'away' ELSE 'online' END),
         away_chosen = COALESCE($4::boolean, u.away_chosen),
         last_seen_at = now()
       FROM (SELECT id, status FROM users WHERE id = $2 FOR UPDATE) p
       WHERE u.organization_id = $1 AND u.id = $2 AND p.id = u.id AND u.removed_at IS NULL
       RETURNING u.status, u.last_seen_at, p.status AS previous`,
      [organizationId, userId, change.status, change.awayChosen],
    );
    return rows[0];
  }

  /** Whether any member of the organization is `online` now (the widget's offline mode). */
  async anyOnline(organizationId: string): Promise<boolean> {
    const rows = await sql<{ online: boolean }>(
      this.dataSource,
      `SELECT EXISTS (
         SELECT 1 FROM users WHERE organization_id = $1 AND status = 'online' AND removed_at IS NULL
       ) AS online`,
      [organizationId],
    );
    return rows[0]?.online === true;
  }
}
