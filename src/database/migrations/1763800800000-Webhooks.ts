import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outgoing webhooks: endpoints (signing secret sealed, see SecretBox), one delivery per event and
 * endpoint (its UUID is the delivery id of every attempt, its body fixed so signatures of
 * retries match), and every attempt. Also the key that seals stored secrets when SECRETS_KEY is
 * not set.
 */
export class Webhooks1763800800000 implements MigrationInterface {
  name = 'Webhooks1763800800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // 256 bits from three UUIDs' worth (366 bits) of the server's strong randomness.
    await queryRunner.query(`
      INSERT INTO service_secrets (name, value)
      VALUES ('secrets_key', encode(sha256(convert_to(
        gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))`);

    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        url text NOT NULL,
        description text,
        events text[] NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        secret_sealed text NOT NULL,
        secret_prefix text NOT NULL,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id, id DESC)`,
    );

    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        outbox_id bigint,
        event text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_status_code integer,
        event_created_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        UNIQUE (endpoint_id, outbox_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id)`,
    );

    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        response_excerpt text,
        error text,
        UNIQUE (delivery_id, attempt)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_attempts`);
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
    await queryRunner.query(`DELETE FROM service_secrets WHERE name = 'secrets_key'`);
  }
}
