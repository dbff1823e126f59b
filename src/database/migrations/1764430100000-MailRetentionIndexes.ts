import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mail retention job (MAIL_RETENTION_DAYS) deletes incoming raw mails and mail-log rows by
 * age, across organizations: each table gets an index on its age, so the daily job reads the few
 * expired rows instead of the whole table.
 */
export class MailRetentionIndexes1764430100000 implements MigrationInterface {
  name = 'MailRetentionIndexes1764430100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX inbound_mails_retention_idx ON inbound_mails (received_at)`,
    );
    await queryRunner.query(`CREATE INDEX mail_log_retention_idx ON mail_log (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX mail_log_retention_idx`);
    await queryRunner.query(`DROP INDEX inbound_mails_retention_idx`);
  }
}
