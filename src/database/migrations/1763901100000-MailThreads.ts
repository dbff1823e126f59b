import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Threading and conversations by email (DESIGN section 9). `mail_tokens`: the capabilities a
 * mail carries, stored as SHA-256 hashes (the mail holds the only copy): `reply` tokens of
 * `Reply-To: reply+<token>@MAIL_REPLY_DOMAIN`, bound to a conversation or ticket and the
 * recipient, and `unsubscribe` tokens of List-Unsubscribe. `conversation_mail_state`: how far a
 * conversation's replies were mailed (or seen). `visitor_mail_preferences`: a visitor who turned
 * conversation mails off.
 */
export class MailThreads1763901100000 implements MigrationInterface {
  name = 'MailThreads1763901100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mail_tokens (
        token_hash bytea PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('reply', 'unsubscribe')),
        conversation_id bigint REFERENCES conversations (id) ON DELETE CASCADE,
        ticket_id bigint REFERENCES tickets (id) ON DELETE CASCADE,
        visitor_id bigint REFERENCES visitors (id) ON DELETE CASCADE,
        recipient text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Threading by In-Reply-To/References: the mails of one conversation or ticket.
    await queryRunner.query(
      `CREATE INDEX mail_log_conversation_idx ON mail_log (organization_id, conversation_id, id)
        WHERE conversation_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX mail_log_ticket_idx ON mail_log (organization_id, ticket_id, id)
        WHERE ticket_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE conversation_mail_state (
        conversation_id bigint PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        handled_through_message_id bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE visitor_mail_preferences (
        visitor_id bigint PRIMARY KEY REFERENCES visitors (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        conversation_mails boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE visitor_mail_preferences`);
    await queryRunner.query(`DROP TABLE conversation_mail_state`);
    await queryRunner.query(`DROP INDEX mail_log_ticket_idx`);
    await queryRunner.query(`DROP INDEX mail_log_conversation_idx`);
    await queryRunner.query(`DROP TABLE mail_tokens`);
  }
}
