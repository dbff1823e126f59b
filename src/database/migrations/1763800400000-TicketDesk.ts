import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agent ticket desk lists tickets by assignee (`GET /api/agent/tickets?assigned_agent_id=`),
 * newest first; status and priority already have their indexes.
 */
export class TicketDesk1763800400000 implements MigrationInterface {
  name = 'TicketDesk1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      // The filter is always an agent id, so unassigned tickets need no entries.
      `CREATE INDEX tickets_assignee_idx ON tickets (organization_id, assigned_agent_id, id DESC)
       WHERE assigned_agent_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX tickets_assignee_idx`);
  }
}
