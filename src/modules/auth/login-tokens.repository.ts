import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';

export type LoginTokenPurpose = 'password_reset' | 'email_verification';

export interface LoginTokenRow {
  id: string;
  login_id: string;
  purpose: LoginTokenPurpose;
}

/**
 * Single-use links mailed to a login (password reset, address verification): only the token's
 * SHA-256 is stored. A login belongs to no one organization, so neither do these.
 */
@Injectable()
export class LoginTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new token; the login's earlier unused ones for the same purpose stop working. */
  async insert(
    loginId: string,
    purpose: LoginTokenPurpose,
    tokenHash: Buffer,
    minutes: number,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await sql(
        manager,
        query`DELETE FROM login_tokens WHERE login_id = $1 AND purpose = $2 AND used_at IS NULL`,
        [loginId, purpose],
      );
      await sql(
        manager,
        query`INSERT INTO login_tokens (login_id, purpose, token_hash, expires_at)
         VALUES ($1, $2, $3, now() + $4 * interval '1 minute')`,
        [loginId, purpose, tokenHash, minutes],
      );
    });
  }

  /**
   * Uses up a token in the caller's transaction: answers it when it was unused and unexpired
   * (then never again), else undefined.
   */
  async consume(
    manager: EntityManager,
    tokenHash: Buffer,
    purpose: LoginTokenPurpose,
  ): Promise<LoginTokenRow | undefined> {
    const rows = await sql(
      manager,
      query<LoginTokenRow>`UPDATE login_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING id, login_id, purpose`,
      [tokenHash, purpose],
    );
    return rows[0];
  }
}
