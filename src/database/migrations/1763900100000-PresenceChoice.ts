import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The presence a member chose (`away`), kept apart from `status`: the last socket's disconnect
 * sets `status` to `offline`, and the next connect sets `online` or, when the member chose Away,
 * `away` again (issue 26: reopening the dashboard no longer switches an agent back to Online).
 */
export class PresenceChoice1763900100000 implements MigrationInterface {
  name = 'PresenceChoice1763900100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE users ADD COLUMN away_chosen boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`UPDATE users SET away_chosen = true WHERE status = 'away'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN away_chosen`);
  }
}
