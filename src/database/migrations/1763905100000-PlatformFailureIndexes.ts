import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform console's failure lists read across every organization: webhook endpoints in a
 * failure streak or disabled, and the mails given up on. Partial indexes keep each read to those
 * rows, however many endpoints and mails there are.
 */
export class PlatformFailureIndexes1763905100000 implements MigrationInterface {
  name = 'PlatformFailureIndexes1763905100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_failing_idx ON webhook_endpoints (id)
        WHERE failing_since IS NOT NULL OR disabled_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX mail_log_failed_idx ON mail_log (updated_at DESC, id DESC)
        WHERE status = 'failed'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX mail_log_failed_idx`);
    await queryRunner.query(`DROP INDEX webhook_endpoints_failing_idx`);
  }
}
