import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message attachments kept in PostgreSQL (every instance serves them) and private notes. An
 * attachment belongs to its uploader (a visitor, an agent or an API key) until a message of the
 * same organization carries it; `token` is the unguessable part of its download address.
 */
export class AttachmentsAndNotes1763802400000 implements MigrationInterface {
  name = 'AttachmentsAndNotes1763802400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE attachments (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        token text NOT NULL,
        uploader_type text NOT NULL CHECK (uploader_type IN ('visitor', 'agent', 'api_key')),
        uploader_id bigint NOT NULL,
        message_id bigint REFERENCES messages (id) ON DELETE CASCADE,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL CHECK (size >= 0),
        data bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX attachments_token_idx ON attachments (token)`);
    await queryRunner.query(
      `CREATE INDEX attachments_message_idx ON attachments (message_id) WHERE message_id IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE messages ADD COLUMN private boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE messages DROP COLUMN private`);
    await queryRunner.query(`DROP TABLE attachments`);
  }
}
