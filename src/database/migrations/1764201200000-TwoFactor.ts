import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 28: TOTP two-factor authentication. The secret is sealed (SECRETS_KEY), recovery codes
 * and login challenges are stored as SHA-256 hashes; an organization may require it of everyone.
 */
export class TwoFactor1764201200000 implements MigrationInterface {
  name = 'TwoFactor1764201200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE logins
        ADD COLUMN two_factor_secret_sealed text,
        ADD COLUMN two_factor_pending_sealed text,
        ADD COLUMN two_factor_enabled_at timestamptz,
        ADD COLUMN two_factor_last_step bigint`);
    await queryRunner.query(`
      CREATE TABLE login_recovery_codes (
        id bigserial PRIMARY KEY,
        login_id bigint NOT NULL REFERENCES logins (id) ON DELETE CASCADE,
        code_hash bytea NOT NULL,
        used_at timestamptz,
        UNIQUE (login_id, code_hash)
      )`);
    await queryRunner.query(`
      CREATE TABLE two_factor_challenges (
        id bigserial PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE,
        login_id bigint NOT NULL REFERENCES logins (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX two_factor_challenges_login_idx ON two_factor_challenges (login_id, created_at)`,
    );
    await queryRunner.query(
      `ALTER TABLE organizations ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE organizations DROP COLUMN require_two_factor`);
    await queryRunner.query(`DROP TABLE two_factor_challenges`);
    await queryRunner.query(`DROP TABLE login_recovery_codes`);
    await queryRunner.query(`
      ALTER TABLE logins
        DROP COLUMN two_factor_secret_sealed,
        DROP COLUMN two_factor_pending_sealed,
        DROP COLUMN two_factor_enabled_at,
        DROP COLUMN two_factor_last_step`);
  }
}
