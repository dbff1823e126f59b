import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox is its own queue: the dispatcher claims committed rows for a short lease, hands them
 * to their subscribers and marks them processed, or retries them later, or gives up after the
 * last attempt. Rows a relay had handed to the old `domain-events` queue and that were never
 * processed are simply claimed again (subscribers are idempotent).
 */
export class OutboxDispatch1763803400000 implements MigrationInterface {
  name = 'OutboxDispatch1763803400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX outbox_events_pending_idx`);
    await queryRunner.query(`
      ALTER TABLE outbox_events
        DROP COLUMN enqueued_at,
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN claimed_until timestamptz,
        ADD COLUMN next_attempt_at timestamptz,
        ADD COLUMN failed_at timestamptz,
        ADD COLUMN last_error text`);
    // The dispatcher scans only rows still to handle.
    await queryRunner.query(
      `CREATE INDEX outbox_events_pending_idx ON outbox_events (id)
        WHERE processed_at IS NULL AND failed_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX outbox_events_pending_idx`);
    await queryRunner.query(`
      ALTER TABLE outbox_events
        ADD COLUMN enqueued_at timestamptz,
        DROP COLUMN attempts,
        DROP COLUMN claimed_until,
        DROP COLUMN next_attempt_at,
        DROP COLUMN failed_at,
        DROP COLUMN last_error`);
    await queryRunner.query(
      `UPDATE outbox_events SET enqueued_at = now() WHERE processed_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX outbox_events_pending_idx ON outbox_events (id) WHERE enqueued_at IS NULL`,
    );
  }
}
