import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The API rate limit takes its budget in reservations (issue 33): each statement says how many
 * of the hits it asked for the window still had room for (`granted`), so a counter never goes
 * past its limit and budget given back is usable at once by another instance.
 */
export class RateLimitReservations1764100400000 implements MigrationInterface {
  name = 'RateLimitReservations1764100400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE rate_limit_hits ADD COLUMN granted integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rate_limit_hits DROP COLUMN granted`);
  }
}
