import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 28: single sign-on with OpenID Connect. One provider per organization (the client secret
 * sealed under SECRETS_KEY), and the attempts in flight: `state` stored as its SHA-256 with the
 * nonce, the sealed PKCE verifier and the hash of the browser's binding cookie, used once.
 */
export class SingleSignOn1764203000000 implements MigrationInterface {
  name = 'SingleSignOn1764203000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sso_settings (
        organization_id bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        issuer text NOT NULL,
        client_id text NOT NULL,
        client_secret_sealed text NOT NULL,
        allowed_domains text[] NOT NULL DEFAULT '{}',
        default_role text NOT NULL DEFAULT 'agent' CHECK (default_role IN ('admin', 'agent')),
        enforce boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE sso_attempts (
        id bigserial PRIMARY KEY,
        state_hash bytea NOT NULL UNIQUE,
        browser_hash bytea NOT NULL,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        nonce text NOT NULL,
        verifier_sealed text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX sso_attempts_expires_idx ON sso_attempts (expires_at)`);
    // A session the provider vouched for stays in its organization (no switching).
    await queryRunner.query(
      `ALTER TABLE agent_sessions ADD COLUMN via_sso boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE agent_sessions DROP COLUMN via_sso`);
    await queryRunner.query(`DROP TABLE sso_attempts`);
    await queryRunner.query(`DROP TABLE sso_settings`);
  }
}
