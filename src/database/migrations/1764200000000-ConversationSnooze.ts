import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Snoozed conversations (issue 26): out of the open views until `snoozed_until`, or until the
 * visitor writes. The partial index serves the wake-up sweep and the Snoozed view.
 */
export class ConversationSnooze1764200000000 implements MigrationInterface {
  name = 'ConversationSnooze1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE conversations ADD COLUMN snoozed_until timestamptz`);
    await queryRunner.query(
      `CREATE INDEX conversations_snoozed_idx ON conversations (snoozed_until, organization_id)
       WHERE snoozed_until IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX conversations_snoozed_idx`);
    await queryRunner.query(`ALTER TABLE conversations DROP COLUMN snoozed_until`);
  }
}
