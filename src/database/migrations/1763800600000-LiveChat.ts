import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live chat: the signing secret of widget session tokens, what the widget tells about a visitor's
 * device and page, read positions and reviews on conversations, one open conversation per visitor
 * (enforced here, so two concurrent `init` calls cannot open two), and an index for an agent's
 * catch-up over every conversation of the organization.
 */
export class LiveChat1763800600000 implements MigrationInterface {
  name = 'LiveChat1763800600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE service_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // gen_random_uuid() draws from the server's strong random source: 2 x 122 random bits.
    await queryRunner.query(`
      INSERT INTO service_secrets (name, value)
      VALUES ('widget_session', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))`);

    await queryRunner.query(`
      ALTER TABLE visitors
        ADD COLUMN platform text,
        ADD COLUMN app_id text,
        ADD COLUMN app_version text,
        ADD COLUMN app_build text,
        ADD COLUMN page_url text,
        ADD COLUMN page_title text`);

    await queryRunner.query(`
      ALTER TABLE conversations
        ADD COLUMN visitor_read_message_id bigint,
        ADD COLUMN agent_read_message_id bigint,
        ADD COLUMN rating smallint CHECK (rating BETWEEN 1 AND 5),
        ADD COLUMN review_comment text,
        ADD COLUMN reviewed_at timestamptz`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX conversations_open_per_visitor_idx ON conversations (visitor_id) WHERE status <> 'closed'`,
    );
    await queryRunner.query(
      `CREATE INDEX messages_organization_idx ON messages (organization_id, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX messages_organization_idx`);
    await queryRunner.query(`DROP INDEX conversations_open_per_visitor_idx`);
    await queryRunner.query(`
      ALTER TABLE conversations DROP COLUMN visitor_read_message_id, DROP COLUMN agent_read_message_id,
        DROP COLUMN rating, DROP COLUMN review_comment, DROP COLUMN reviewed_at`);
    await queryRunner.query(`
      ALTER TABLE visitors DROP COLUMN platform, DROP COLUMN app_id, DROP COLUMN app_version,
        DROP COLUMN app_build, DROP COLUMN page_url, DROP COLUMN page_title`);
    await queryRunner.query(`DROP TABLE service_secrets`);
  }
}
