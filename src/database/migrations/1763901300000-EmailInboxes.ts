import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email inboxes (DESIGN section 9): a support address per inbox, with the service's forwarding
 * address `inbox-<forwarding_token>@MAIL_REPLY_DOMAIN`; tickets gain the `email` source and
 * comments the `customer` author (the customer answering by mail).
 */
export class EmailInboxes1763901300000 implements MigrationInterface {
  name = 'EmailInboxes1763901300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email_inboxes (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        name text NOT NULL,
        address text NOT NULL,
        forwarding_token text NOT NULL UNIQUE,
        acknowledge boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One inbox per support address across the service: an incoming mail names one organization.
    await queryRunner.query(
      `CREATE UNIQUE INDEX email_inboxes_address_idx ON email_inboxes (lower(address))`,
    );
    await queryRunner.query(
      `CREATE INDEX email_inboxes_organization_idx ON email_inboxes (organization_id, id DESC)`,
    );
    await queryRunner.query(`
      ALTER TABLE tickets DROP CONSTRAINT tickets_source_check,
        ADD CONSTRAINT tickets_source_check
          CHECK (source IN ('api', 'widget', 'dashboard', 'email'))`);
    await queryRunner.query(`
      ALTER TABLE ticket_comments DROP CONSTRAINT ticket_comments_author_type_check,
        ADD CONSTRAINT ticket_comments_author_type_check
          CHECK (author_type IN ('agent', 'visitor', 'customer', 'system'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM ticket_comments WHERE author_type = 'customer'`);
    await queryRunner.query(`DELETE FROM tickets WHERE source = 'email'`);
    await queryRunner.query(`
      ALTER TABLE ticket_comments DROP CONSTRAINT ticket_comments_author_type_check,
        ADD CONSTRAINT ticket_comments_author_type_check
          CHECK (author_type IN ('agent', 'visitor', 'system'))`);
    await queryRunner.query(`
      ALTER TABLE tickets DROP CONSTRAINT tickets_source_check,
        ADD CONSTRAINT tickets_source_check CHECK (source IN ('api', 'widget', 'dashboard'))`);
    await queryRunner.query(`DROP TABLE email_inboxes`);
  }
}
