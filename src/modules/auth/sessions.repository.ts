import { Injectable } from '@nestjs/common';
import { sql } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '../../common/auth/auth.types';

export interface SessionRow {
  session_id: string;
  user_id: string;
  organization_id: string;
  role: Role;
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
  ): Promise<void> {
    const executor = manager ?? this.dataSource;
    await executor.query(
      `INSERT INTO agent_sessions (user_id, token_hash, expires_at) VALUES ($1, $2, now() + $3 * interval '1 day')`,
      [userId, tokenHash, ttlDays],
    );
    await executor.query(`UPDATE users SET last_seen_at = now() WHERE id = $1`, [userId]);
  }

  /** The live session of this token: not idle past `expires_at`, nor older than `maxAgeDays`. */
  findActive(tokenHash: Buffer, maxAgeDays: number): Promise<SessionRow | undefined> {
    return this.findLive('s.token_hash = $1', tokenHash, maxAgeDays, 'agent_session_by_token');
  }

  /** The same session again by id (what a socket re-checks), or undefined once it ended. */
  findActiveById(sessionId: string, maxAgeDays: number): Promise<SessionRow | undefined> {
    return this.findLive('s.id = $1', sessionId, maxAgeDays, 'agent_session_by_id');
  }

  private async findLive(
    match: string,
    value: unknown,
    maxAgeDays: number,
    prepared: string,
  ): Promise<SessionRow | undefined> {
    const rows = await sql<SessionRow>(
      this.dataSource,
      `SELECT s.id AS session_id, u.id AS user_id, u.organization_id, u.role, s.last_used_at,
              LEAST(s.expires_at, s.created_at + $2 * interval '1 day') AS ends_at
         FROM agent_sessions s JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
        WHERE ${match} AND s.expires_at > now() AND s.created_at > now() - $2 * interval '1 day'`,
      [value, maxAgeDays],
      prepared,
    );
    return rows[0];
  }

  /** Sliding expiry and presence, written at most once a minute per session. */
  async touch(sessionId: string, ttlDays: number): Promise<void> {
    await this.dataSource.query(
      `WITH s AS (
         UPDATE agent_sessions SET last_used_at = now(), expires_at = now() + $2 * interval '1 day'
          WHERE id = $1 AND last_used_at < now() - interval '1 minute' RETURNING user_id)
       UPDATE users SET last_seen_at = now() WHERE id IN (SELECT user_id FROM s)`,
      [sessionId, ttlDays],
    );
  }

  async delete(userId: string, sessionId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM agent_sessions WHERE user_id = $1 AND id = $2`, [
      userId,
      sessionId,
    ]);
  }

  /** Ends every session of the user except `keepId` (none kept without it); answers their ids. */
  async deleteAll(
    manager: EntityManager | undefined,
    userId: string,
    keepId?: string,
  ): Promise<string[]> {
    const rows = await sql<{ id: string }>(
      manager ?? this.dataSource,
      `DELETE FROM agent_sessions WHERE user_id = $1 AND ($2::bigint IS NULL OR id <> $2)
       RETURNING id`,
      [userId, keepId ?? null],
    );
    return rows.map((row) => String(row.id));
  }
}
