import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Generative answers (DESIGN section 11): a site's governance of them (on or off, guidance,
 * topics the bot must not answer, a daily cap) and the log of every generated answer with the
 * passages it was given and what the visitor made of it.
 */
export class GenerativeAnswers1764330300000 implements MigrationInterface {
  name = 'GenerativeAnswers1764330300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE answer_bot_settings
        ADD COLUMN generative boolean NOT NULL DEFAULT false,
        ADD COLUMN guidance text,
        ADD COLUMN forbidden_topics jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN daily_cap integer NOT NULL DEFAULT 200 CHECK (daily_cap BETWEEN 1 AND 100000)`);
    await queryRunner.query(`
      CREATE TABLE answer_log (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        question_message_id bigint REFERENCES messages (id) ON DELETE CASCADE,
        question text NOT NULL,
        passages jsonb NOT NULL,
        answer text,
        outcome text NOT NULL CHECK (outcome IN ('answered', 'handed_off', 'failed', 'timed_out')),
        model text NOT NULL,
        latency_ms integer NOT NULL,
        feedback text CHECK (feedback IN ('helped', 'handoff')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX answer_log_list_idx ON answer_log (organization_id, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX answer_log_cap_idx ON answer_log (site_id, created_at)`);
    await queryRunner.query(
      `CREATE INDEX answer_log_conversation_idx ON answer_log (conversation_id, id DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE answer_log`);
    await queryRunner.query(`
      ALTER TABLE answer_bot_settings DROP COLUMN generative, DROP COLUMN guidance,
        DROP COLUMN forbidden_topics, DROP COLUMN daily_cap`);
  }
}
