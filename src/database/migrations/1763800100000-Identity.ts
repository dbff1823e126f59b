import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1763800100000 implements MigrationInterface {
  name = 'Identity1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organizations (
        id bigserial PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business')),
        subscription_ends_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE users (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'agent')),
        status text NOT NULL DEFAULT 'offline' CHECK (status IN ('online', 'away', 'offline')),
        last_seen_at timestamptz,
        removed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One active account per address; a removed member's address can be invited again.
    await queryRunner.query(
      `CREATE UNIQUE INDEX users_email_active_key ON users (lower(email)) WHERE removed_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX users_organization_role_idx ON users (organization_id, role, id) WHERE removed_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE agent_sessions (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX agent_sessions_user_idx ON agent_sessions (user_id)`);
    await queryRunner.query(`
      CREATE TABLE sites (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        domain text,
        timezone text NOT NULL DEFAULT 'UTC',
        is_active boolean NOT NULL DEFAULT true,
        allowed_domains jsonb NOT NULL DEFAULT '[]',
        widget_key text NOT NULL UNIQUE,
        widget_settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX sites_organization_idx ON sites (organization_id, id)`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        name text NOT NULL,
        key_prefix text NOT NULL,
        key_hash bytea NOT NULL UNIQUE,
        abilities text[] NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX api_keys_organization_idx ON api_keys (organization_id, id)`,
    );
    await queryRunner.query(`
      CREATE UNLOGGED TABLE rate_limit_hits (
        key text PRIMARY KEY,
        hits integer NOT NULL,
        reset_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'rate_limit_hits',
      'api_keys',
      'sites',
      'agent_sessions',
      'users',
      'organizations',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
