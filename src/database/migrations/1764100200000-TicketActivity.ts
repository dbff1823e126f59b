import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each ticket's history (issue 26): who filed it and who changed its status, priority or
 * assignee, when. Written in the transaction of the change; earlier tickets get their filing.
 */
export class TicketActivity1764100200000 implements MigrationInterface {
  name = 'TicketActivity1764100200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ticket_activity (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('created', 'status', 'priority', 'assignee')),
        from_value text,
        to_value text,
        actor_type text NOT NULL CHECK (actor_type IN ('agent', 'api', 'customer', 'system')),
        actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX ticket_activity_ticket_idx ON ticket_activity (organization_id, ticket_id, id)`,
    );
    await queryRunner.query(`
      INSERT INTO ticket_activity (organization_id, ticket_id, kind, to_value, actor_type, created_at)
      SELECT organization_id, id, 'created', status,
             CASE source WHEN 'api' THEN 'api' WHEN 'dashboard' THEN 'agent' ELSE 'customer' END,
             created_at
        FROM tickets ORDER BY id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ticket_activity`);
  }
}
