import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's audit log (DESIGN section 12): one row per change or security event, written
 * in the change's own transaction. Append-only: a trigger refuses every UPDATE, and every DELETE
 * except inside a transaction that set `audit_log.retention` to `on` (the retention job).
 */
export class AuditLog1764202000000 implements MigrationInterface {
  name = 'AuditLog1764202000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id),
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key', 'system')),
        actor_id bigint,
        actor_name text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text,
        target_label text,
        changes jsonb NOT NULL DEFAULT '{}',
        ip text,
        user_agent text,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX audit_log_organization_idx ON audit_log (organization_id, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX audit_log_organization_action_idx ON audit_log (organization_id, action, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX audit_log_created_at_idx ON audit_log (created_at)`);
    await queryRunner.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('audit_log.retention', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_log`);
    await queryRunner.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
