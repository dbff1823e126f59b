import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform administration (DESIGN section 13): administrators granted by the CLI (besides those
 * PLATFORM_ADMIN_EMAILS names), suspended organizations, the operator log of every action taken
 * on the console (append-only: the database refuses updates and deletes), and each running
 * instance's heartbeat.
 */
export class PlatformAdministration1763902100000 implements MigrationInterface {
  name = 'PlatformAdministration1763902100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_admins (
        email text PRIMARY KEY CHECK (email = lower(email)),
        granted_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      ALTER TABLE organizations
        ADD COLUMN suspended_at timestamptz,
        ADD COLUMN suspension_reason text`);
    await queryRunner.query(`
      CREATE TABLE platform_operator_log (
        id bigserial PRIMARY KEY,
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'cli')),
        actor_id bigint,
        actor_email text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        changes jsonb NOT NULL DEFAULT '{}',
        ip text,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX platform_operator_log_target_idx ON platform_operator_log (target_type, target_id, id)`,
    );
    await queryRunner.query(`
      CREATE FUNCTION platform_operator_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'platform_operator_log is append-only';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER platform_operator_log_append_only BEFORE UPDATE OR DELETE ON platform_operator_log
      FOR EACH ROW EXECUTE FUNCTION platform_operator_log_append_only()`);
    await queryRunner.query(`
      CREATE TABLE service_instances (
        id uuid PRIMARY KEY,
        hostname text NOT NULL,
        pid integer NOT NULL,
        version text NOT NULL,
        workers_enabled boolean NOT NULL,
        started_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE service_instances`);
    await queryRunner.query(`DROP TABLE platform_operator_log`);
    await queryRunner.query(`DROP FUNCTION platform_operator_log_append_only()`);
    await queryRunner.query(
      `ALTER TABLE organizations DROP COLUMN suspended_at, DROP COLUMN suspension_reason`,
    );
    await queryRunner.query(`DROP TABLE platform_admins`);
  }
}
