import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ticket counts per organization, status, priority and assignee, kept by a trigger, so that the
 * `total` of a ticket list (filters: status, priority, assignee) is a sum over a handful of rows
 * instead of a count over the organization's tickets (bench:growth measured the count growing
 * with the table: 0.02 ms at 1 000 tickets, 0.29 ms at 10 000).
 *
 * `assigned_agent_id` 0 stands for "unassigned" (a primary key column cannot be NULL). As for
 * conversation_totals, when a ticket moves from one key to another the two counter rows are
 * updated in key order, so two transactions moving tickets in opposite directions cannot
 * deadlock.
 */
export class TicketTotals1763801000000 implements MigrationInterface {
  name = 'TicketTotals1763801000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ticket_totals (
        organization_id bigint NOT NULL,
        status text NOT NULL,
        priority text NOT NULL,
        assigned_agent_id bigint NOT NULL,
        total bigint NOT NULL,
        PRIMARY KEY (organization_id, status, priority, assigned_agent_id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION ticket_totals_add(o bigint, st text, p text, a bigint, delta integer)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO ticket_totals AS t (organization_id, status, priority, assigned_agent_id, total)
        VALUES (o, st, p, a, delta)
        ON CONFLICT (organization_id, status, priority, assigned_agent_id)
        DO UPDATE SET total = t.total + EXCLUDED.total
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION ticket_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        old_key text;
        new_key text;
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          old_key := concat_ws('|', OLD.organization_id, OLD.status, OLD.priority, coalesce(OLD.assigned_agent_id, 0));
        END IF;
        IF TG_OP <> 'DELETE' THEN
          new_key := concat_ws('|', NEW.organization_id, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0));
        END IF;
        IF old_key IS NOT DISTINCT FROM new_key THEN
          RETURN NULL;
        END IF;
        IF new_key IS NOT NULL AND (old_key IS NULL OR new_key < old_key) THEN
          PERFORM ticket_totals_add(NEW.organization_id, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0), 1);
          new_key := NULL;
        END IF;
        IF old_key IS NOT NULL THEN
          PERFORM ticket_totals_add(OLD.organization_id, OLD.status, OLD.priority, coalesce(OLD.assigned_agent_id, 0), -1);
        END IF;
        IF new_key IS NOT NULL THEN
          PERFORM ticket_totals_add(NEW.organization_id, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0), 1);
        END IF;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER ticket_totals_track
      AFTER INSERT OR UPDATE OF organization_id, status, priority, assigned_agent_id OR DELETE
      ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_totals_track()`);
    await queryRunner.query(`
      INSERT INTO ticket_totals (organization_id, status, priority, assigned_agent_id, total)
      SELECT organization_id, status, priority, coalesce(assigned_agent_id, 0), count(*)
      FROM tickets GROUP BY 1, 2, 3, 4`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER ticket_totals_track ON tickets`);
    await queryRunner.query(`DROP FUNCTION ticket_totals_track()`);
    await queryRunner.query(`DROP FUNCTION ticket_totals_add(bigint, text, text, bigint, integer)`);
    await queryRunner.query(`DROP TABLE ticket_totals`);
  }
}
