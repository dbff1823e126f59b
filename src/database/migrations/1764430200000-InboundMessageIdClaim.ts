import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The same Message-ID is taken once per organization, decided before delivery: a mail claims
 * its Message-ID (organization and Message-ID set while still `received`) and the unique index
 * now covers claimed mails too, so four copies at once (two doors, two instances) deliver once.
 * Until now only the `processed` mark was unique, written after delivering.
 */
export class InboundMessageIdClaim1764430200000 implements MigrationInterface {
  name = 'InboundMessageIdClaim1764430200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX inbound_mails_message_once_idx`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX inbound_mails_message_once_idx ON inbound_mails (organization_id, message_id)
        WHERE organization_id IS NOT NULL AND message_id IS NOT NULL
          AND status IN ('received', 'processed')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX inbound_mails_message_once_idx`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX inbound_mails_message_once_idx ON inbound_mails (organization_id, message_id)
        WHERE organization_id IS NOT NULL AND message_id IS NOT NULL AND status = 'processed'`,
    );
  }
}
