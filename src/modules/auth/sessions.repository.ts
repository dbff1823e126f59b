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

  async findActive(tokenHash: Buffer): Promise<SessionRow | undefined> {
    const rows = await sql<SessionRow>(
      this.dataSource,
      `SELECT s.id AS session_id, u.id AS user_id, u.organization_id, u.role, s.last_used_at
         FROM agent_sessions s JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
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

  async delete(sessionId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM agent_sessions WHERE id = $1`, [sessionId]);
  }
}
