import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counter triggers of conversation_totals and ticket_totals run at commit instead of at each
 * statement. Every first reply of an organization moves a chat between the same few counter
 * rows, and every new ticket adds to the same one; a counter row updated mid-transaction stayed
 * locked through the rest of the transaction's round trips, so concurrent first replies queued
 * behind each other (bench: 8 of 20 connections waiting on that lock). Deferred, the row is
 * locked only for the commit itself. The functions and the counts stay as they were.
 */
export class DeferredTotals1763801100000 implements MigrationInterface {
  name = 'DeferredTotals1763801100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER conversation_totals_track ON conversations`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER conversation_totals_track
      AFTER INSERT OR UPDATE OF organization_id, site_id, status, assigned_agent_id, started_at OR DELETE
      ON conversations DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION conversation_totals_track()`);
    await queryRunner.query(`DROP TRIGGER ticket_totals_track ON tickets`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER ticket_totals_track
      AFTER INSERT OR UPDATE OF organization_id, status, priority, assigned_agent_id OR DELETE
      ON tickets DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION ticket_totals_track()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER ticket_totals_track ON tickets`);
    await queryRunner.query(`
      CREATE TRIGGER ticket_totals_track
      AFTER INSERT OR UPDATE OF organization_id, status, priority, assigned_agent_id OR DELETE
      ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_totals_track()`);
    await queryRunner.query(`DROP TRIGGER conversation_totals_track ON conversations`);
    await queryRunner.query(`
      CREATE TRIGGER conversation_totals_track
      AFTER INSERT OR UPDATE OF organization_id, site_id, status, assigned_agent_id, started_at OR DELETE
      ON conversations FOR EACH ROW EXECUTE FUNCTION conversation_totals_track()`);
  }
}
