import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 28, part 1: one login, several organizations. `logins` holds what belongs to a person
 * (address, password, verification); `users` stays the membership (organization, role, name,
 * status), so every feature's member id is unchanged. `users.email` stays as the member's copy
 * of its login's address (addresses never change), and is unique per organization only.
 * Invitations and the single-use mailed tokens (password reset, email verification) are stored
 * as SHA-256 hashes.
 */
export class LoginsAndInvitations1764201000000 implements MigrationInterface {
  name = 'LoginsAndInvitations1764201000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE logins (
        id bigserial PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        email_verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX logins_email_key ON logins (lower(email))`);
    // One login per address: the active member's password, else the newest removed one's.
    // Accounts made before verification existed count as verified.
    await queryRunner.query(`
      INSERT INTO logins (email, password_hash, email_verified_at, created_at)
      SELECT DISTINCT ON (lower(email)) email, password_hash, now(), created_at
        FROM users
       ORDER BY lower(email), (removed_at IS NULL) DESC, id DESC`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN login_id bigint REFERENCES logins (id)`);
    await queryRunner.query(
      `UPDATE users u SET login_id = l.id FROM logins l WHERE lower(l.email) = lower(u.email)`,
    );
    await queryRunner.query(`ALTER TABLE users ALTER COLUMN login_id SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN password_hash`);
    await queryRunner.query(`DROP INDEX users_email_active_key`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX users_login_active_key ON users (organization_id, login_id) WHERE removed_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX users_login_idx ON users (login_id)`);

    await queryRunner.query(`
      CREATE TABLE invitations (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        email text NOT NULL,
        name text,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'agent')),
        token_hash bytea NOT NULL UNIQUE,
        invited_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX invitations_pending_idx ON invitations (organization_id, id)
        WHERE accepted_at IS NULL AND revoked_at IS NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE login_tokens (
        id bigserial PRIMARY KEY,
        login_id bigint NOT NULL REFERENCES logins (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('password_reset', 'email_verification')),
        token_hash bytea NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX login_tokens_login_idx ON login_tokens (login_id, purpose)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE login_tokens`);
    await queryRunner.query(`DROP TABLE invitations`);
    // Without logins an address is one active member again: a login's later memberships end.
    await queryRunner.query(`
      UPDATE users u SET removed_at = now(), status = 'offline'
       WHERE u.removed_at IS NULL AND EXISTS (
         SELECT 1 FROM users o WHERE o.login_id = u.login_id AND o.removed_at IS NULL AND o.id < u.id)`);
    await queryRunner.query(`DROP INDEX users_login_idx`);
    await queryRunner.query(`DROP INDEX users_login_active_key`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN password_hash text`);
    await queryRunner.query(
      `UPDATE users u SET password_hash = l.password_hash FROM logins l WHERE l.id = u.login_id`,
    );
    await queryRunner.query(`ALTER TABLE users ALTER COLUMN password_hash SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN login_id`);
    await queryRunner.query(`DROP TABLE logins`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX users_email_active_key ON users (lower(email)) WHERE removed_at IS NULL`,
    );
  }
}
