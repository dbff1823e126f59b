import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 25: a visitor session the widget ended (`session_ended_at`: its tokens and its UID stop
 * working); agent login failures counted per address and per client address for a growing
 * delay; and what the upload quotas count (the client address of a visitor's upload, recent
 * uploads per uploader and per address, and an organization's stored bytes).
 */
export class SecurityRoundThree1763903000000 implements MigrationInterface {
  name = 'SecurityRoundThree1763903000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE visitors ADD COLUMN session_ended_at timestamptz`);
    await queryRunner.query(`
      CREATE TABLE login_failures (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        last_failed_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`ALTER TABLE attachments ADD COLUMN client_address text`);
    await queryRunner.query(
      `CREATE INDEX attachments_uploader_recent_idx ON attachments (uploader_type, uploader_id, created_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX attachments_address_recent_idx ON attachments (client_address, created_at)
       WHERE client_address IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX attachments_organization_size_idx ON attachments (organization_id) INCLUDE (size)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX attachments_organization_size_idx`);
    await queryRunner.query(`DROP INDEX attachments_address_recent_idx`);
    await queryRunner.query(`DROP INDEX attachments_uploader_recent_idx`);
    await queryRunner.query(`ALTER TABLE attachments DROP COLUMN client_address`);
    await queryRunner.query(`DROP TABLE login_failures`);
    await queryRunner.query(`ALTER TABLE visitors DROP COLUMN session_ended_at`);
  }
}
