import { Injectable } from '@nestjs/common';
import { handTyped, pageOf, query, sql } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { LoginOrigin, Role } from '../../common/auth/auth.types';

/** Whether a member takes chats now (`users.status`). */
export type AgentStatus = 'online' | 'away' | 'offline';

export interface UserRow {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  /** The login (address and password) this membership belongs to. */
  login_id: string;
  /** The unguessable part of the avatar's address; null without one. */
  avatar_token: string | null;
  role: Role;
  status: AgentStatus;
  last_seen_at: Date | null;
  created_at: Date;
}

/** What belongs to a person rather than to one membership: the address and the password. */
export interface LoginRow {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  /** Set while two-factor authentication is on (the secret itself is read only where needed). */
  two_factor_enabled_at: Date | null;
}

/** A login's membership, with its organization's name (the organization switcher). */
export interface MembershipRow {
  user_id: string;
  organization_id: string;
  organization_name: string;
  role: Role;
}

/** Agent accounts (`users`). Every read names the organization, except the login lookup. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A membership of `login` in the organization (its address copied onto the member). */
  async insert(
    manager: EntityManager,
    organizationId: string,
    user: { name: string; login: Pick<LoginRow, 'id' | 'email'>; role: Role },
  ): Promise<UserRow> {
    const rows = await sql(
      manager,
      query<UserRow>`INSERT INTO users (organization_id, login_id, name, email, role)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at`,
      [organizationId, user.login.id, user.name, user.login.email, user.role],
    );
    return rows[0];
  }

  /**
   * The login of this address, made with `passwordHash` (and `origin`: how it came to be) when
   * there is none; `created` tells which. An existing login keeps its own password and origin.
   */
  async ensureLogin(
    manager: EntityManager,
    email: string,
    passwordHash: string,
    verified: boolean,
    origin: LoginOrigin,
  ): Promise<{ login: LoginRow; created: boolean }> {
    const inserted = await sql(
      manager,
      query<LoginRow>`INSERT INTO logins (email, password_hash, email_verified_at, origin)
       VALUES ($1, $2, CASE WHEN $3::boolean THEN now() END, $4)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id, email, password_hash, email_verified_at, two_factor_enabled_at`,
      [email, passwordHash, verified, origin],
    );
    if (inserted[0]) return { login: inserted[0], created: true };
    const found = await sql(
      manager,
      query<LoginRow>`SELECT id, email, password_hash, email_verified_at, two_factor_enabled_at FROM logins WHERE lower(email) = lower($1)`,
      [email],
    );
    return { login: found[0], created: false };
  }

  /** Login is the one lookup without a tenant: an email address names one login. */
  async findLoginByEmail(email: string): Promise<LoginRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<LoginRow>`SELECT id, email, password_hash, email_verified_at, two_factor_enabled_at FROM logins WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0];
  }

  async findLogin(executor: EntityManager | undefined, loginId: string) {
    const rows = await sql(
      executor ?? this.dataSource,
      query<LoginRow>`SELECT id, email, password_hash, email_verified_at, two_factor_enabled_at FROM logins WHERE id = $1`,
      [loginId],
    );
    return rows[0] as LoginRow | undefined;
  }

  /** The login's active memberships, the most recently used first (where a login lands). */
  memberships(loginId: string): Promise<MembershipRow[]> {
    return sql(
      this.dataSource,
      query<MembershipRow>`SELECT u.id AS user_id, u.organization_id, o.name AS organization_name, u.role
         FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE u.login_id = $1 AND u.removed_at IS NULL
        ORDER BY u.last_seen_at DESC NULLS LAST, u.id`,
      [loginId],
    );
  }

  /** The login's active membership in one organization. */
  async findMembership(loginId: string, organizationId: string): Promise<UserRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<UserRow>`SELECT id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at FROM users WHERE login_id = $1 AND organization_id = $2 AND removed_at IS NULL`,
      [loginId, organizationId],
    );
    return rows[0];
  }

  /**
   * A mailed link reached the login's address: it is confirmed, and by a link (what a platform
   * administrator by address needs; a login made for someone starts confirmed without one).
   */
  async markLoginVerified(loginId: string, executor?: EntityManager): Promise<void> {
    await sql(
      executor ?? this.dataSource,
      query`UPDATE logins SET email_verified_at = COALESCE(email_verified_at, now()),
          email_verified_by_link_at = COALESCE(email_verified_by_link_at, now()), updated_at = now()
        WHERE id = $1`,
      [loginId],
    );
  }

  async find(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<UserRow | undefined> {
    const rows = await sql(
      manager,
      query<UserRow>`SELECT id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at FROM users WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL`,
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
    return pageOf(
      this.dataSource,
      {
        rows: filter.oldestFirst
          ? query<UserRow>`SELECT id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at
             FROM users WHERE organization_id = $1 AND removed_at IS NULL AND ($2::text IS NULL OR role = $2)
             ORDER BY id LIMIT $3 OFFSET $4`
          : query<UserRow>`SELECT id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at
             FROM users WHERE organization_id = $1 AND removed_at IS NULL AND ($2::text IS NULL OR role = $2)
             ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total
           FROM users WHERE organization_id = $1 AND removed_at IS NULL AND ($2::text IS NULL OR role = $2)`,
      },
      [organizationId, filter.role ?? null],
      page,
    );
  }

  /** Locks the organization's owners, so two concurrent demotions cannot leave none. */
  async lockOwners(manager: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await sql(
      manager,
      query<{
        id: string;
      }>`SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' AND removed_at IS NULL FOR UPDATE`,
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
    const rows = await sql(
      manager,
      query<UserRow>`UPDATE users SET name = COALESCE($3, name), role = COALESCE($4, role), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL RETURNING id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at`,
      [organizationId, userId, changes.name ?? null, changes.role ?? null],
    );
    return rows[0];
  }

  /**
   * A new password hash for the login; `expected` guards a rehash against a password changed
   * meanwhile.
   */
  async setPasswordHash(
    manager: EntityManager | undefined,
    loginId: string,
    passwordHash: string,
    expected?: string,
  ): Promise<boolean> {
    const rows = await sql(
      manager ?? this.dataSource,
      query<{ id: string }>`UPDATE logins SET password_hash = $2, updated_at = now()
        WHERE id = $1 AND ($3::text IS NULL OR password_hash = $3) RETURNING id`,
      [loginId, passwordHash, expected ?? null],
    );
    return rows.length > 0;
  }

  /** Replaces the member's avatar (`image` null: none); the old image is deleted. */
  async setAvatar(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    image: { token: string; contentType: string; data: Buffer } | null,
  ): Promise<UserRow | undefined> {
    await sql(manager, query`DELETE FROM avatars WHERE organization_id = $1 AND user_id = $2`, [
      organizationId,
      userId,
    ]);
    if (image)
      await sql(
        manager,
        query`INSERT INTO avatars (token, organization_id, user_id, content_type, data)
         VALUES ($1, $2, $3, $4, $5)`,
        [image.token, organizationId, userId, image.contentType, image.data],
      );
    const rows = await sql(
      manager,
      query<UserRow>`UPDATE users SET avatar_token = $3, updated_at = now()
        WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL RETURNING id, organization_id, login_id, name, email, avatar_token, role, status, last_seen_at, created_at`,
      [organizationId, userId, image?.token ?? null],
    );
    return rows[0];
  }

  /** An avatar by its address: the unguessable token is the capability (`<img src>`). */
  async avatarByToken(token: string): Promise<{ content_type: string; data: Buffer } | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{ content_type: string; data: Buffer }>`SELECT a.content_type, a.data FROM avatars a
         JOIN users u ON u.id = a.user_id AND u.avatar_token = a.token AND u.removed_at IS NULL
        WHERE a.token = $1`,
      [token],
    );
    return rows[0];
  }

  async remove(manager: EntityManager, organizationId: string, userId: string): Promise<boolean> {
    const rows = await sql(
      manager,
      query<{
        id: string;
      }>`UPDATE users SET removed_at = now(), status = 'offline', updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL RETURNING id`,
      [organizationId, userId],
    );
    if (rows.length > 0)
      await sql(
        manager,
        query`DELETE FROM agent_sessions
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
    const rows = await sql(
      manager,
      handTyped<{ status: string; last_seen_at: Date; previous: string }>`UPDATE users u SET
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
    const rows = await sql(
      this.dataSource,
      query<{ online: boolean }>`SELECT EXISTS (
         SELECT 1 FROM users WHERE organization_id = $1 AND status = 'online' AND removed_at IS NULL
       ) AS online`,
      [organizationId],
    );
    return rows[0]?.online === true;
  }
}
