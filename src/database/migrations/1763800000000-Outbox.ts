import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Outbox1763800000000 implements MigrationInterface {
  name = 'Outbox1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox_events (
        id bigserial PRIMARY KEY,
        organization_id bigint,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz,
        processed_at timestamptz
      )`);
    // The relay scans only rows not yet handed to the queue.
    await queryRunner.query(
      `CREATE INDEX outbox_events_pending_idx ON outbox_events (id) WHERE enqueued_at IS NULL`,
    );
    // Wake the relay as soon as a transaction that wrote an event commits (NOTIFY is transactional).
    await queryRunner.query(`
      CREATE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox_events', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events
      FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_notify()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE outbox_events`);
    await queryRunner.query(`DROP FUNCTION outbox_events_notify()`);
  }
}
