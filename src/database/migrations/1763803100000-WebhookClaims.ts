import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds a delivery's current claim: the queue job of the attempt. After a crash the queue
 * hands the same job to a worker again, which may then take its own claim back at once instead of
 * waiting for the claim's lease to run out (see WebhookDeliveryRepository.claim).
 */
export class WebhookClaims1763803100000 implements MigrationInterface {
  name = 'WebhookClaims1763803100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN claimed_by text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN claimed_by`);
  }
}
