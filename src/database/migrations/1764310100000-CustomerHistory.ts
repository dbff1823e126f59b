import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 26: a customer's chats and tickets linked. Tickets filed by mail or the API carry the
 * customer's address, not a visitor; the ticket's "this customer" list and the visitor panel
 * find them by address, regardless of case, through these indexes.
 */
export class CustomerHistory1764310100000 implements MigrationInterface {
  name = 'CustomerHistory1764310100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX tickets_customer_email_idx ON tickets (organization_id, lower(customer_email))
       WHERE customer_email IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX visitors_email_idx ON visitors (organization_id, lower(email))
       WHERE email IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX visitors_email_idx`);
    await queryRunner.query(`DROP INDEX tickets_customer_email_idx`);
  }
}
