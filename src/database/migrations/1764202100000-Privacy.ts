import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Privacy (DESIGN section 12): a site's retention of closed conversations (`retention_days`,
 * null keeps them forever), when a visitor agreed to the site's consent text, and when a visitor
 * was erased, and when a conversation's content was (both rows stay, emptied, so aggregate
 * figures keep their counts).
 */
export class Privacy1764202100000 implements MigrationInterface {
  name = 'Privacy1764202100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sites ADD COLUMN retention_days integer CHECK (retention_days BETWEEN 1 AND 36500)`,
    );
    await queryRunner.query(
      `ALTER TABLE visitors ADD COLUMN consented_at timestamptz, ADD COLUMN erased_at timestamptz`,
    );
    // An erased conversation keeps its row (times, status, rating: the report figures) without
    // its content; the retention job skips those it erased already.
    await queryRunner.query(`ALTER TABLE conversations ADD COLUMN erased_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX conversations_retention_idx ON conversations (site_id, closed_at)
       WHERE closed_at IS NOT NULL AND erased_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX conversations_retention_idx`);
    await queryRunner.query(`ALTER TABLE conversations DROP COLUMN erased_at`);
    await queryRunner.query(`ALTER TABLE visitors DROP COLUMN consented_at, DROP COLUMN erased_at`);
    await queryRunner.query(`ALTER TABLE sites DROP COLUMN retention_days`);
  }
}
