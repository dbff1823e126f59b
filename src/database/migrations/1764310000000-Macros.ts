import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 26: macros, a named sequence of actions (reply from a canned response, add labels,
 * assign, set status, close) an agent runs on a conversation in one step. The actions are kept
 * as a JSON array (their order is the order they run in); the references they hold (canned
 * responses, labels, members) are checked when the macro is saved and again when it runs.
 */
export class Macros1764310000000 implements MigrationInterface {
  name = 'Macros1764310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE macros (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        actions jsonb NOT NULL,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Names are unique per organization regardless of case (the picker lists them by name).
    await queryRunner.query(
      `CREATE UNIQUE INDEX macros_name_key ON macros (organization_id, lower(name))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE macros`);
  }
}
