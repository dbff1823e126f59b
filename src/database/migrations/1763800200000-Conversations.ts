import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visitors, conversations, messages, tickets and their comments. Every list of the public and
 * agent APIs filters by organization and orders by id descending; the indexes are named for
 * those queries.
 */
export class Conversations1763800200000 implements MigrationInterface {
  name = 'Conversations1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE TABLE visitors (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        visitor_uid uuid NOT NULL,
        name text,
        email text,
        phone text,
        country text,
        language text,
        custom_fields jsonb NOT NULL DEFAULT '{}',
        pre_chat_submitted boolean NOT NULL DEFAULT false,
        last_seen_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (site_id, visitor_uid)
      )`);
    await queryRunner.query(
      `CREATE INDEX visitors_organization_idx ON visitors (organization_id, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX visitors_organization_site_idx ON visitors (organization_id, site_id, id DESC)`,
    );
    // `search` matches name, email and visitor UID anywhere in the text.
    await queryRunner.query(`
      CREATE INDEX visitors_search_trgm_idx ON visitors
      USING gin ((coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || visitor_uid::text) gin_trgm_ops)`);

    await queryRunner.query(`
      CREATE TABLE conversations (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        visitor_id bigint NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'active', 'closed', 'missed')),
        type text NOT NULL DEFAULT 'visitor',
        locale text,
        assigned_agent_id bigint REFERENCES users (id) ON DELETE SET NULL,
        started_at timestamptz,
        last_message_at timestamptz,
        closed_at timestamptz,
        closed_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A conversation is listed once its first message started it.
    await queryRunner.query(
      `CREATE INDEX conversations_list_idx ON conversations (organization_id, id DESC) WHERE started_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_status_idx ON conversations (organization_id, status, id DESC) WHERE started_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_site_idx ON conversations (organization_id, site_id, id DESC) WHERE started_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_assignee_idx ON conversations (organization_id, assigned_agent_id, id DESC) WHERE started_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_visitor_idx ON conversations (visitor_id, id DESC)`,
    );

    await queryRunner.query(`
      CREATE TABLE messages (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        sender_type text NOT NULL CHECK (sender_type IN ('visitor', 'agent', 'bot', 'system')),
        sender_id bigint,
        body text NOT NULL,
        type text NOT NULL DEFAULT 'text',
        attachments jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX messages_conversation_idx ON messages (conversation_id, id DESC)`,
    );

    await queryRunner.query(`
      CREATE TABLE ticket_sequences (
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        year integer NOT NULL,
        last_value integer NOT NULL,
        PRIMARY KEY (organization_id, year)
      )`);
    await queryRunner.query(`
      CREATE TABLE tickets (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        visitor_id bigint REFERENCES visitors (id) ON DELETE SET NULL,
        conversation_id bigint REFERENCES conversations (id) ON DELETE SET NULL,
        ticket_number text NOT NULL,
        subject text NOT NULL,
        description text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'in_progress', 'resolved', 'closed')),
        priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
        source text NOT NULL CHECK (source IN ('api', 'widget', 'dashboard')),
        customer_name text,
        customer_email text,
        assigned_agent_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, ticket_number)
      )`);
    await queryRunner.query(
      `CREATE INDEX tickets_organization_idx ON tickets (organization_id, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX tickets_status_idx ON tickets (organization_id, status, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX tickets_priority_idx ON tickets (organization_id, priority, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX tickets_visitor_idx ON tickets (visitor_id) WHERE visitor_id IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE ticket_comments (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
        author_type text NOT NULL CHECK (author_type IN ('agent', 'visitor', 'system')),
        author_id bigint,
        body text NOT NULL,
        is_internal boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX ticket_comments_ticket_idx ON ticket_comments (ticket_id, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'ticket_comments',
      'tickets',
      'ticket_sequences',
      'messages',
      'conversations',
      'visitors',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
