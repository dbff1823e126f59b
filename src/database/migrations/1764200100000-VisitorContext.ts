import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visitor context for the agents' panel (issue 26): where the visitor came from, their browser
 * (the user agent, parsed when read), their time zone, and the last pages they saw.
 */
export class VisitorContext1764200100000 implements MigrationInterface {
  name = 'VisitorContext1764200100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE visitors ADD COLUMN referrer text, ADD COLUMN user_agent text,
         ADD COLUMN timezone text, ADD COLUMN pages_seen jsonb NOT NULL DEFAULT '[]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE visitors DROP COLUMN referrer, DROP COLUMN user_agent, DROP COLUMN timezone,
         DROP COLUMN pages_seen`,
    );
  }
}
