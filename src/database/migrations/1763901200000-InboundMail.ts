import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incoming mail (DESIGN section 9): every accepted mail is stored raw here before it is parsed,
 * whichever door it came by; a mail still `received` after a crash is parsed again. The
 * organization is known only once the mail is matched; the same Message-ID is taken once per
 * organization (the partial unique index).
 */
export class InboundMail1763901200000 implements MigrationInterface {
  name = 'InboundMail1763901200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE inbound_mails (
        id bigserial PRIMARY KEY,
        door text NOT NULL CHECK (door IN ('http', 'smtp', 'imap')),
        client_address text,
        envelope_from text,
        envelope_to text[] NOT NULL DEFAULT '{}',
        raw bytea NOT NULL,
        size integer NOT NULL,
        status text NOT NULL DEFAULT 'received'
          CHECK (status IN ('received', 'processed', 'rejected', 'duplicate')),
        outcome text,
        organization_id bigint REFERENCES organizations (id) ON DELETE CASCADE,
        message_id text,
        from_address text,
        subject text,
        conversation_id bigint,
        ticket_id bigint,
        sender_mismatch boolean NOT NULL DEFAULT false,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX inbound_mails_message_once_idx ON inbound_mails (organization_id, message_id)
        WHERE organization_id IS NOT NULL AND message_id IS NOT NULL AND status = 'processed'`,
    );
    // The sweep that parses again what a crash left unparsed.
    await queryRunner.query(
      `CREATE INDEX inbound_mails_received_idx ON inbound_mails (received_at) WHERE status = 'received'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE inbound_mails`);
  }
}
