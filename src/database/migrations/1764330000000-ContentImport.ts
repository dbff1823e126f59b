import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content import and bot replies (DESIGN section 11): one import state per site (the spec's
 * `content_import`), the pages an import read (so a re-import knows what changed), and the
 * question-and-answer pairs the answer bot replies with, imported or written by agents.
 */
export class ContentImport1764330000000 implements MigrationInterface {
  name = 'ContentImport1764330000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE content_imports (
        site_id bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        status text NOT NULL
          CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        progress_label text NOT NULL DEFAULT '',
        pages integer NOT NULL DEFAULT 0,
        kb_articles integer NOT NULL DEFAULT 0,
        bot_replies integer NOT NULL DEFAULT 0,
        options jsonb NOT NULL,
        error text,
        started_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX content_imports_organization_idx ON content_imports (organization_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE crawled_pages (
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        url text NOT NULL,
        content_hash text NOT NULL,
        title text NOT NULL,
        article_id bigint,
        read_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (site_id, url)
      )`);
    await queryRunner.query(`
      CREATE TABLE bot_replies (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        question text NOT NULL,
        answer text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        source_url text,
        edited_by_agent boolean NOT NULL DEFAULT false,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', question), 'A') || setweight(to_tsvector('simple', answer), 'C')
        ) STORED
      )`);
    // One reply per question and site: an import updates the reply it made before.
    await queryRunner.query(
      `CREATE UNIQUE INDEX bot_replies_question_key ON bot_replies (site_id, lower(question))`,
    );
    await queryRunner.query(
      `CREATE INDEX bot_replies_organization_idx ON bot_replies (organization_id, site_id, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX bot_replies_search_idx ON bot_replies USING gin (search)`,
    );
    // Other wordings and typos of a question (the answer bot's trigram match).
    await queryRunner.query(
      `CREATE INDEX bot_replies_question_trgm_idx ON bot_replies USING gin (lower(question) gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE bot_replies`);
    await queryRunner.query(`DROP TABLE crawled_pages`);
    await queryRunner.query(`DROP TABLE content_imports`);
  }
}
