import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Idempotency1763800300000 implements MigrationInterface {
  name = 'Idempotency1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        api_key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint bytea NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (api_key_id, key)
      )`);
    await queryRunner.query(
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
