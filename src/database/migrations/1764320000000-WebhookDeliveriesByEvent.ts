import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A visitor's erasure redacts the webhook deliveries of the events about it, found by their
 * outbox row: without this index that is a scan of every delivery ever made (they are kept).
 */
export class WebhookDeliveriesByEvent1764320000000 implements MigrationInterface {
  name = 'WebhookDeliveriesByEvent1764320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_outbox_idx ON webhook_deliveries (outbox_id)
        WHERE outbox_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_deliveries_outbox_idx`);
  }
}
