import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outgoing mail log (DESIGN section 9): one row per mail, written before it is queued. The
 * rendered mail waits sealed in `content_sealed` (a login code is in it) and is dropped once the
 * mail is sent or has failed for good; the log keeps kind, recipient, subject and outcome.
 */
export class MailLog1763901000000 implements MigrationInterface {
  name = 'MailLog1763901000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mail_log (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint REFERENCES sites (id) ON DELETE SET NULL,
        kind text NOT NULL,
        recipient text NOT NULL,
        subject text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        message_id text NOT NULL UNIQUE,
        conversation_id bigint,
        ticket_id bigint,
        content_sealed text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    // The mail log page: newest first per organization.
    await queryRunner.query(
      `CREATE INDEX mail_log_organization_idx ON mail_log (organization_id, id DESC)`,
    );
    // The sweep that re-queues mails whose job was lost (a crash between insert and enqueue).
    await queryRunner.query(
      `CREATE INDEX mail_log_queued_idx ON mail_log (updated_at) WHERE status = 'queued'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mail_log`);
  }
}
