import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox rows given up on, counted at every metrics scrape and on the platform console: a
 * partial index keeps that count to those rows instead of a week of processed ones.
 */
export class OutboxFailedIndex1763902000000 implements MigrationInterface {
  name = 'OutboxFailedIndex1763902000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX outbox_events_failed_idx ON outbox_events (id) WHERE failed_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX outbox_events_failed_idx`);
  }
}
