import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the agent dashboard needs from the database: canned responses, labels on conversations,
 * automatic assignment settings, full-text search over messages, visitors and tickets, and the
 * kept columns the reports read (first response and missed time on each conversation).
 */
export class DeskBackend1763802500000 implements MigrationInterface {
  name = 'DeskBackend1763802500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Lets one GIN index hold the organization id beside the words, so a search never reads
    // another tenant's postings.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);

    await queryRunner.query(`
      CREATE TABLE canned_responses (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        shortcut text NOT NULL,
        body text NOT NULL,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Unique per organization, and (text_pattern_ops) the index of `q` prefix searches too.
    await queryRunner.query(
      `CREATE UNIQUE INDEX canned_responses_shortcut_key ON canned_responses (organization_id, shortcut text_pattern_ops)`,
    );

    await queryRunner.query(`
      CREATE TABLE labels (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX labels_name_key ON labels (organization_id, lower(name))`,
    );
    await queryRunner.query(`
      CREATE TABLE conversation_labels (
        conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        label_id bigint NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (conversation_id, label_id)
      )`);
    // `GET /api/agent/conversations?label=`: newest conversations carrying a label.
    await queryRunner.query(
      `CREATE INDEX conversation_labels_label_idx ON conversation_labels (label_id, conversation_id DESC)`,
    );

    await queryRunner.query(`
      ALTER TABLE organizations
        ADD COLUMN auto_assignment_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN auto_assignment_capacity integer NOT NULL DEFAULT 5
          CHECK (auto_assignment_capacity BETWEEN 1 AND 100)`);
    // Round robin: the online agent auto-assigned longest ago goes next.
    await queryRunner.query(`ALTER TABLE users ADD COLUMN last_auto_assigned_at timestamptz`);

    // Reports read these instead of scanning messages: filled by the reply path and the
    // missed-chat timer.
    await queryRunner.query(`
      ALTER TABLE conversations
        ADD COLUMN first_response_at timestamptz,
        ADD COLUMN missed_at timestamptz`);
    await queryRunner.query(`
      UPDATE conversations c SET first_response_at = m.first_at
      FROM (SELECT conversation_id, min(created_at) AS first_at FROM messages
            WHERE sender_type = 'agent' GROUP BY conversation_id) m
      WHERE m.conversation_id = c.id`);
    await queryRunner.query(
      `UPDATE conversations SET missed_at = updated_at WHERE status = 'missed'`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_started_idx ON conversations (organization_id, started_at) WHERE started_at IS NOT NULL`,
    );
    // The inbox sorted by newest activity.
    await queryRunner.query(
      `CREATE INDEX conversations_activity_idx ON conversations (organization_id, last_message_at DESC NULLS LAST, id DESC)
       WHERE started_at IS NOT NULL`,
    );
    // Open chats per agent, counted against the capacity.
    await queryRunner.query(
      `CREATE INDEX conversations_open_assignee_idx ON conversations (assigned_agent_id)
       WHERE status IN ('waiting', 'active')`,
    );

    // The visitor panel lists the visitor's appointments.
    await queryRunner.query(
      `CREATE INDEX appointments_visitor_idx ON appointments (visitor_id, scheduled_at DESC)
       WHERE visitor_id IS NOT NULL`,
    );

    await queryRunner.query(`
      ALTER TABLE messages ADD COLUMN search_vector tsvector
        GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED`);
    await queryRunner.query(
      `CREATE INDEX messages_search_idx ON messages USING gin (organization_id, search_vector)`,
    );
    await queryRunner.query(`
      CREATE INDEX visitors_panel_search_trgm_idx ON visitors USING gin
      ((coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')) gin_trgm_ops)`);
    await queryRunner.query(`
      CREATE INDEX tickets_search_trgm_idx ON tickets USING gin
      ((ticket_number || ' ' || subject) gin_trgm_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX tickets_search_trgm_idx`);
    await queryRunner.query(`DROP INDEX visitors_panel_search_trgm_idx`);
    await queryRunner.query(`DROP INDEX messages_search_idx`);
    await queryRunner.query(`DROP INDEX appointments_visitor_idx`);
    await queryRunner.query(`ALTER TABLE messages DROP COLUMN search_vector`);
    await queryRunner.query(`DROP INDEX conversations_open_assignee_idx`);
    await queryRunner.query(`DROP INDEX conversations_activity_idx`);
    await queryRunner.query(`DROP INDEX conversations_started_idx`);
    await queryRunner.query(
      `ALTER TABLE conversations DROP COLUMN first_response_at, DROP COLUMN missed_at`,
    );
    await queryRunner.query(`ALTER TABLE users DROP COLUMN last_auto_assigned_at`);
    await queryRunner.query(
      `ALTER TABLE organizations DROP COLUMN auto_assignment_enabled, DROP COLUMN auto_assignment_capacity`,
    );
    await queryRunner.query(`DROP TABLE conversation_labels`);
    await queryRunner.query(`DROP TABLE labels`);
    await queryRunner.query(`DROP TABLE canned_responses`);
  }
}
