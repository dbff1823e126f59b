import { Injectable } from '@nestjs/common';
import { handTyped, query, sql } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '../../common/auth/auth.types';

export interface SessionRow {
  session_id: string;
  user_id: string;
  login_id: string;
  organization_id: string;
  role: Role;
  /**
   * The organization requires two-factor authentication and this login has not set it up (never
   * for a session of single sign-on: its second factor is the identity provider's).
   */
  two_factor_missing: boolean;
  /** Started by single sign-on. */
  via_sso: boolean;
  last_used_at: Date;
  /** When the session ends if nothing happens: the idle expiry or the absolute lifetime. */
  ends_at: Date;
}

/** Agent sessions; the token itself is never stored, only its SHA-256. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new session; logging in also counts as being seen. */
  async insert(
    manager: EntityManager | undefined,
    userId: string,
    tokenHash: Buffer,
    ttlDays: number,
    viaSso = false,
  ): Promise<string> {
    const executor = manager ?? this.dataSource;
    const rows = await sql(
      executor,
      query<{ id: string }>`INSERT INTO agent_sessions (user_id, token_hash, expires_at, via_sso)
       VALUES ($1, $2, now() + $3 * interval '1 day', $4)
       RETURNING id`,
      [userId, tokenHash, ttlDays, viaSso],
    );
    await sql(executor, query`UPDATE users SET last_seen_at = now() WHERE id = $1`, [userId]);
    return String(rows[0].id);
  }

  /** The live session of this token: not idle past `expires_at`, nor older than `maxAgeDays`. */
  findActive(tokenHash: Buffer, maxAgeDays: number): Promise<SessionRow | undefined> {
    return this.findLive('token', tokenHash, maxAgeDays);
  }

  /** The same session again by id (what a socket re-checks), or undefined once it ended. */
  findActiveById(sessionId: string, maxAgeDays: number): Promise<SessionRow | undefined> {
    return this.findLive('id', sessionId, maxAgeDays);
  }

  /** By the token's hash or by the session's id (`value`), each a statement prepared once. */
  private async findLive(
    by: 'token' | 'id',
    value: unknown,
    maxAgeDays: number,
  ): Promise<SessionRow | undefined> {
    const rows = await sql(
      this.dataSource,
      by === 'token'
        ? handTyped<SessionRow>`SELECT s.id AS session_id, u.id AS user_id, u.login_id, u.organization_id, u.role, s.last_used_at, s.via_sso,
              LEAST(s.expires_at, s.created_at + $2 * interval '1 day') AS ends_at,
              (o.require_two_factor AND NOT s.via_sso AND l.two_factor_enabled_at IS NULL) AS two_factor_missing
         FROM agent_sessions s JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
         JOIN organizations o ON o.id = u.organization_id
         JOIN logins l ON l.id = u.login_id
        WHERE s.token_hash = $1 AND s.expires_at > now() AND s.created_at > now() - $2 * interval '1 day'`
        : handTyped<SessionRow>`SELECT s.id AS session_id, u.id AS user_id, u.login_id, u.organization_id, u.role, s.last_used_at, s.via_sso,
              LEAST(s.expires_at, s.created_at + $2 * interval '1 day') AS ends_at,
              (o.require_two_factor AND NOT s.via_sso AND l.two_factor_enabled_at IS NULL) AS two_factor_missing
         FROM agent_sessions s JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
         JOIN organizations o ON o.id = u.organization_id
         JOIN logins l ON l.id = u.login_id
        WHERE s.id = $1 AND s.expires_at > now() AND s.created_at > now() - $2 * interval '1 day'`,
      [value, maxAgeDays],
      by === 'token' ? 'agent_session_by_token' : 'agent_session_by_id',
    );
    return rows[0];
  }

  /** Sliding expiry and presence, written at most once a minute per session. */
  async touch(sessionId: string, ttlDays: number): Promise<void> {
    await sql(
      this.dataSource,
      query`WITH s AS (
         UPDATE agent_sessions SET last_used_at = now(), expires_at = now() + $2 * interval '1 day'
          WHERE id = $1 AND last_used_at < now() - interval '1 minute' RETURNING user_id)
       UPDATE users SET last_seen_at = now() WHERE id IN (SELECT user_id FROM s)`,
      [sessionId, ttlDays],
    );
  }

  async delete(userId: string, sessionId: string, manager?: EntityManager): Promise<void> {
    await sql(
      manager ?? this.dataSource,
      query`DELETE FROM agent_sessions WHERE user_id = $1 AND id = $2`,
      [userId, sessionId],
    );
  }

  /** Ends every session of the user except `keepId` (none kept without it); answers their ids. */
  async deleteAll(
    manager: EntityManager | undefined,
    userId: string,
    keepId?: string,
  ): Promise<string[]> {
    const rows = await sql(
      manager ?? this.dataSource,
      query<{
        id: string;
      }>`DELETE FROM agent_sessions WHERE user_id = $1 AND ($2::bigint IS NULL OR id <> $2)
       RETURNING id`,
      [userId, keepId ?? null],
    );
    return rows.map((row) => String(row.id));
  }

  /**
   * Ends every session of every membership of the login except `keepId`; answers their ids (a
   * password changed or reset).
   */
  async deleteAllOfLogin(
    manager: EntityManager | undefined,
    loginId: string,
    keepId?: string,
  ): Promise<string[]> {
    const rows = await sql(
      manager ?? this.dataSource,
      query<{ id: string }>`DELETE FROM agent_sessions
        WHERE user_id IN (SELECT id FROM users WHERE login_id = $1)
          AND ($2::bigint IS NULL OR id <> $2)
       RETURNING id`,
      [loginId, keepId ?? null],
    );
    return rows.map((row) => String(row.id));
  }
}
