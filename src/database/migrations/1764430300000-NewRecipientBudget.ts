import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hourly budget of mail to new addresses (issue 40, point 8; DESIGN section 9):
 * `mail_recipients` holds each address other than its members' that an organization has mailed,
 * with when it was first mailed (the last hour's rows are the budget spent); a mail-log row
 * waiting for the budget says until when and why.
 */
export class NewRecipientBudget1764430300000 implements MigrationInterface {
  name = 'NewRecipientBudget1764430300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mail_recipients (
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        address text NOT NULL CHECK (address = lower(address)),
        first_mailed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, address)
      )`);
    await queryRunner.query(
      `CREATE INDEX mail_recipients_recent_idx ON mail_recipients (organization_id, first_mailed_at)`,
    );
    await queryRunner.query(`
      ALTER TABLE mail_log
        ADD COLUMN held_until timestamptz,
        ADD COLUMN held_reason text CHECK (held_reason IN ('new_recipient_budget'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE mail_log DROP COLUMN held_until, DROP COLUMN held_reason`);
    await queryRunner.query(`DROP TABLE mail_recipients`);
  }
}
