import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A kept response's body as the exact text that was sent, so that a replay is the first response
 * byte for byte (`jsonb` reorders keys). Rows kept before this column keep their `body` and are
 * replayed from it until they expire (24 hours); new rows leave `body` empty.
 */
export class IdempotencyBodyText1763803300000 implements MigrationInterface {
  name = 'IdempotencyBodyText1763803300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys ADD COLUMN body_text text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE idempotency_keys SET body = body_text::jsonb WHERE body_text IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE idempotency_keys DROP COLUMN body_text`);
  }
}
