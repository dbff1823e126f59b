import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 28: a member's avatar, an uploaded image kept in PostgreSQL like attachments and served
 * at an unguessable address (`users.avatar_token`), so the widget can show it to visitors.
 */
export class MemberAvatars1764201100000 implements MigrationInterface {
  name = 'MemberAvatars1764201100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE avatars (
        token text PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        content_type text NOT NULL,
        data bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX avatars_user_idx ON avatars (organization_id, user_id)`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN avatar_token text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN avatar_token`);
    await queryRunner.query(`DROP TABLE avatars`);
  }
}
