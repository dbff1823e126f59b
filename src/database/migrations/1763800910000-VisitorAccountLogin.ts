import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visitor account login and data lookup: each site's data-lookup settings (the owner database's
 * URL sealed), visitors logged in to an owner account, one-time codes (hashed), the
 * organization's trusted-login secret (hashed), and the visitor messages a keyword rule already
 * answered (so a redelivered event answers once).
 */
export class VisitorAccountLogin1763800910000 implements MigrationInterface {
  name = 'VisitorAccountLogin1763800910000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE data_lookup_settings (
        site_id bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        driver text NOT NULL CHECK (driver IN ('postgres')),
        url_sealed text NOT NULL,
        account jsonb NOT NULL,
        require_otp boolean NOT NULL,
        filter_record jsonb,
        rules jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE visitor_account_logins (
        visitor_id bigint PRIMARY KEY REFERENCES visitors (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        account_key text NOT NULL,
        account_source text NOT NULL,
        identifier text NOT NULL,
        method text NOT NULL CHECK (method IN ('identifier', 'otp', 'trusted')),
        verified_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);

    await queryRunner.query(`
      CREATE TABLE visitor_login_codes (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        visitor_id bigint NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
        account_key text,
        account_source text,
        identifier text NOT NULL,
        code_salt bytea NOT NULL,
        code_hash bytea NOT NULL,
        attempts smallint NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        burned_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The hourly limit counts a visitor's recent codes; verification takes its newest one.
    await queryRunner.query(
      `CREATE INDEX visitor_login_codes_visitor_recent_idx ON visitor_login_codes (visitor_id, created_at DESC)`,
    );
    // ... and the per-account limit counts an account's recent codes across visitors.
    await queryRunner.query(
      `CREATE INDEX visitor_login_codes_account_recent_idx ON visitor_login_codes (site_id, account_key, created_at DESC)
         WHERE account_key IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE trusted_login_settings (
        organization_id bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        secret_hash bytea,
        secret_prefix text,
        secret_created_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (NOT enabled OR secret_hash IS NOT NULL)
      )`);

    await queryRunner.query(`
      CREATE TABLE data_lookup_replies (
        message_id bigint PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        rule_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE data_lookup_replies`);
    await queryRunner.query(`DROP TABLE trusted_login_settings`);
    await queryRunner.query(`DROP TABLE visitor_login_codes`);
    await queryRunner.query(`DROP TABLE visitor_account_logins`);
    await queryRunner.query(`DROP TABLE data_lookup_settings`);
  }
}
