import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answer bot (DESIGN section 11): its settings per site; a message's buttons (`actions`);
 * where a conversation stands with the bot; each visitor question the bot looked at (answered or
 * not: the gaps an owner should write articles for); bot replies searched in their language.
 */
export class AnswerBot1764330200000 implements MigrationInterface {
  name = 'AnswerBot1764330200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE answer_bot_settings (
        site_id bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        min_score real NOT NULL DEFAULT 0.3 CHECK (min_score BETWEEN 0 AND 1),
        handoff_message text,
        max_answers integer NOT NULL DEFAULT 3 CHECK (max_answers BETWEEN 1 AND 20),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`ALTER TABLE messages ADD COLUMN actions jsonb`);
    await queryRunner.query(`
      ALTER TABLE conversations
        ADD COLUMN bot_state text CHECK (bot_state IN ('handed_off', 'resolved')),
        ADD COLUMN bot_state_at timestamptz`);
    await queryRunner.query(`
      CREATE TABLE bot_questions (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        message_id bigint NOT NULL UNIQUE REFERENCES messages (id) ON DELETE CASCADE,
        question text NOT NULL,
        answered boolean NOT NULL DEFAULT false,
        bot_reply_id bigint REFERENCES bot_replies (id) ON DELETE SET NULL,
        article_id bigint REFERENCES kb_articles (id) ON DELETE SET NULL,
        score real,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX bot_questions_report_idx ON bot_questions (organization_id, created_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_bot_state_idx ON conversations (organization_id, bot_state_at)
       WHERE bot_state IS NOT NULL`,
    );
    // Searched in the language of the site's help center, stop words and stems included.
    await queryRunner.query(`ALTER TABLE bot_replies ADD COLUMN locale text NOT NULL DEFAULT 'en'`);
    await queryRunner.query(`DROP INDEX bot_replies_search_idx`);
    await queryRunner.query(`ALTER TABLE bot_replies DROP COLUMN search`);
    await queryRunner.query(`
      ALTER TABLE bot_replies ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector(kb_search_config(locale), question), 'A')
          || setweight(to_tsvector(kb_search_config(locale), answer), 'C')
      ) STORED`);
    await queryRunner.query(
      `CREATE INDEX bot_replies_search_idx ON bot_replies USING gin (search)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX bot_replies_search_idx`);
    await queryRunner.query(`ALTER TABLE bot_replies DROP COLUMN search, DROP COLUMN locale`);
    await queryRunner.query(`
      ALTER TABLE bot_replies ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', question), 'A') || setweight(to_tsvector('simple', answer), 'C')
      ) STORED`);
    await queryRunner.query(
      `CREATE INDEX bot_replies_search_idx ON bot_replies USING gin (search)`,
    );
    await queryRunner.query(`DROP TABLE bot_questions`);
    await queryRunner.query(`DROP INDEX conversations_bot_state_idx`);
    await queryRunner.query(
      `ALTER TABLE conversations DROP COLUMN bot_state, DROP COLUMN bot_state_at`,
    );
    await queryRunner.query(`ALTER TABLE messages DROP COLUMN actions`);
    await queryRunner.query(`DROP TABLE answer_bot_settings`);
  }
}
