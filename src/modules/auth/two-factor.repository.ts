import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';

export interface TwoFactorState {
  secret_sealed: string | null;
  pending_sealed: string | null;
  enabled_at: Date | null;
  last_step: string | null;
}

export interface ChallengeRow {
  id: string;
  login_id: string;
  user_id: string;
  attempts: number;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * A login's two-factor state, recovery codes and login challenges. Like the login itself these
 * belong to a person, not to one organization; challenges and codes are found by their hash.
 */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly dataSource: DataSource) {}

  async state(
    loginId: string,
    manager?: EntityManager,
    lock = false,
  ): Promise<TwoFactorState | undefined> {
    const rows = await sql(
      manager ?? this.dataSource,
      lock
        ? query<TwoFactorState>`SELECT two_factor_secret_sealed AS secret_sealed, two_factor_pending_sealed AS pending_sealed,
              two_factor_enabled_at AS enabled_at, two_factor_last_step AS last_step
         FROM logins WHERE id = $1 FOR UPDATE`
        : query<TwoFactorState>`SELECT two_factor_secret_sealed AS secret_sealed, two_factor_pending_sealed AS pending_sealed,
              two_factor_enabled_at AS enabled_at, two_factor_last_step AS last_step
         FROM logins WHERE id = $1`,
      [loginId],
    );
    return rows[0];
  }

  async setPending(loginId: string, sealed: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE logins SET two_factor_pending_sealed = $2, updated_at = now() WHERE id = $1`,
      [loginId, sealed],
    );
  }

  /** Turns it on with the pending secret, and stores the recovery codes' hashes. */
  async enable(
    manager: EntityManager,
    loginId: string,
    sealed: string,
    step: number,
    codeHashes: Buffer[],
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE logins SET two_factor_secret_sealed = $2, two_factor_pending_sealed = NULL,
         two_factor_enabled_at = now(), two_factor_last_step = $3, updated_at = now()
       WHERE id = $1`,
      [loginId, sealed, step],
    );
    await sql(manager, query`DELETE FROM login_recovery_codes WHERE login_id = $1`, [loginId]);
    await sql(
      manager,
      query`INSERT INTO login_recovery_codes (login_id, code_hash) SELECT $1, unnest($2::bytea[])`,
      [loginId, codeHashes],
    );
  }

  async disable(manager: EntityManager, loginId: string): Promise<void> {
    await sql(
      manager,
      query`UPDATE logins SET two_factor_secret_sealed = NULL, two_factor_pending_sealed = NULL,
         two_factor_enabled_at = NULL, two_factor_last_step = NULL, updated_at = now()
       WHERE id = $1`,
      [loginId],
    );
    await sql(manager, query`DELETE FROM login_recovery_codes WHERE login_id = $1`, [loginId]);
  }

  /** Records the time step of a code just accepted, so the same code never works twice. */
  async useStep(manager: EntityManager, loginId: string, step: number): Promise<void> {
    await sql(manager, query`UPDATE logins SET two_factor_last_step = $2 WHERE id = $1`, [
      loginId,
      step,
    ]);
  }

  /** Uses up a recovery code of the login; false when it is not one of its unused codes. */
  async useRecoveryCode(manager: EntityManager, loginId: string, hash: Buffer): Promise<boolean> {
    const rows = await sql(
      manager,
      query<{ id: string }>`UPDATE login_recovery_codes SET used_at = now()
        WHERE login_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [loginId, hash],
    );
    return rows.length > 0;
  }

  async recoveryCodesLeft(loginId: string): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{
        left: string;
      }>`SELECT count(*) AS left FROM login_recovery_codes WHERE login_id = $1 AND used_at IS NULL`,
      [loginId],
    );
    return Number(rows[0].left);
  }

  async insertChallenge(
    loginId: string,
    userId: string,
    tokenHash: Buffer,
    seconds: number,
  ): Promise<Date> {
    const rows = await sql(
      this.dataSource,
      query<{
        expires_at: Date;
      }>`INSERT INTO two_factor_challenges (token_hash, login_id, user_id, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 second') RETURNING expires_at`,
      [tokenHash, loginId, userId, seconds],
    );
    // Old challenges go: nothing reads them once they are past.
    await sql(
      this.dataSource,
      query`DELETE FROM two_factor_challenges WHERE login_id = $1 AND expires_at < now() - interval '1 day'`,
      [loginId],
    );
    return rows[0].expires_at;
  }

  /** The challenge a token names, locked for the caller's transaction. */
  async lockChallenge(
    manager: EntityManager,
    tokenHash: Buffer,
  ): Promise<ChallengeRow | undefined> {
    const rows = await sql(
      manager,
      query<ChallengeRow>`SELECT id, login_id, user_id, attempts, expires_at, used_at
         FROM two_factor_challenges WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return rows[0];
  }

  async failChallenge(challengeId: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE two_factor_challenges SET attempts = attempts + 1 WHERE id = $1`,
      [challengeId],
    );
  }

  async finishChallenge(manager: EntityManager, challengeId: string): Promise<void> {
    await sql(manager, query`UPDATE two_factor_challenges SET used_at = now() WHERE id = $1`, [
      challengeId,
    ]);
  }
}
