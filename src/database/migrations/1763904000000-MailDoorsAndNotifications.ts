import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rest of email (DESIGN section 9):
 * - an inbox's IMAP mailbox (`imap_*`: the password sealed like the other stored secrets) and
 *   the lease that lets one instance at a time poll it (`imap_lease_owner` until
 *   `imap_lease_until`), with the last outcome for the owner to read (`imap_status`,
 *   `imap_error`, `imap_checked_at`);
 * - `sender_mismatch` on messages and ticket comments: written from a mail whose sender was not
 *   the address the reply address was given to;
 * - reply tokens bound to an agent (`mail_tokens.user_id`): an agent answering a notification
 *   writes as that agent;
 * - agent notifications by email: each agent's choices (a missing row: every kind on) and the
 *   notifications waiting to be mailed together (one mail per agent and conversation or ticket
 *   per AGENT_NOTIFY_DIGEST_SECONDS).
 */
export class MailDoorsAndNotifications1763904000000 implements MigrationInterface {
  name = 'MailDoorsAndNotifications1763904000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE email_inboxes
        ADD COLUMN imap_host text,
        ADD COLUMN imap_port integer CHECK (imap_port BETWEEN 1 AND 65535),
        ADD COLUMN imap_tls boolean,
        ADD COLUMN imap_user text,
        ADD COLUMN imap_password_sealed text,
        ADD COLUMN imap_folder text,
        ADD COLUMN imap_lease_owner text,
        ADD COLUMN imap_lease_until timestamptz,
        ADD COLUMN imap_status text CHECK (imap_status IN ('connecting', 'connected', 'failed')),
        ADD COLUMN imap_error text,
        ADD COLUMN imap_checked_at timestamptz`);
    // The pollers' look-up of the inboxes that have a mailbox.
    await queryRunner.query(
      `CREATE INDEX email_inboxes_imap_idx ON email_inboxes (id) WHERE imap_host IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE messages ADD COLUMN sender_mismatch boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE ticket_comments ADD COLUMN sender_mismatch boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE mail_tokens ADD COLUMN user_id bigint REFERENCES users (id) ON DELETE CASCADE`,
    );
    await queryRunner.query(`
      CREATE TABLE agent_notification_preferences (
        user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        new_conversation boolean NOT NULL DEFAULT true,
        conversation_assigned boolean NOT NULL DEFAULT true,
        visitor_reply boolean NOT NULL DEFAULT true,
        missed_chat boolean NOT NULL DEFAULT true,
        ticket_assigned boolean NOT NULL DEFAULT true,
        customer_reply boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE agent_notifications (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL,
        conversation_id bigint REFERENCES conversations (id) ON DELETE CASCADE,
        ticket_id bigint REFERENCES tickets (id) ON DELETE CASCADE,
        detail text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        mailed_at timestamptz,
        CHECK ((conversation_id IS NULL) <> (ticket_id IS NULL))
      )`);
    // One agent's notifications about one conversation or ticket: the pending ones and the last mail.
    await queryRunner.query(
      `CREATE INDEX agent_notifications_thread_idx
        ON agent_notifications (organization_id, user_id, conversation_id, ticket_id, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE agent_notifications`);
    await queryRunner.query(`DROP TABLE agent_notification_preferences`);
    await queryRunner.query(`ALTER TABLE mail_tokens DROP COLUMN user_id`);
    await queryRunner.query(`ALTER TABLE ticket_comments DROP COLUMN sender_mismatch`);
    await queryRunner.query(`ALTER TABLE messages DROP COLUMN sender_mismatch`);
    await queryRunner.query(`DROP INDEX email_inboxes_imap_idx`);
    await queryRunner.query(`
      ALTER TABLE email_inboxes
        DROP COLUMN imap_host, DROP COLUMN imap_port, DROP COLUMN imap_tls, DROP COLUMN imap_user,
        DROP COLUMN imap_password_sealed, DROP COLUMN imap_folder, DROP COLUMN imap_lease_owner,
        DROP COLUMN imap_lease_until, DROP COLUMN imap_status, DROP COLUMN imap_error,
        DROP COLUMN imap_checked_at`);
  }
}
