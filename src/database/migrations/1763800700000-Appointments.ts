import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Appointments: booking rules per site (the spec's defaults and ranges, weekly working hours in
 * the site's time zone) and the appointments themselves. Double booking is impossible in the
 * database: an exclusion constraint refuses two live appointments of one site whose blocked
 * ranges (the appointment plus the buffer after it) overlap, however the requests interleave.
 */
export class Appointments1763800700000 implements MigrationInterface {
  name = 'Appointments1763800700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // `site_id WITH =` inside a GiST exclusion constraint needs the btree operator classes.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);

    await queryRunner.query(`
      CREATE TABLE appointment_settings (
        site_id bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT true,
        duration_minutes integer NOT NULL DEFAULT 30 CHECK (duration_minutes BETWEEN 5 AND 240),
        buffer_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_minutes BETWEEN 0 AND 120),
        slot_interval_minutes integer NOT NULL DEFAULT 30
          CHECK (slot_interval_minutes BETWEEN 5 AND 120),
        advance_days integer NOT NULL DEFAULT 14 CHECK (advance_days BETWEEN 1 AND 90),
        min_notice_hours integer NOT NULL DEFAULT 2 CHECK (min_notice_hours BETWEEN 0 AND 168),
        working_hours jsonb NOT NULL DEFAULT '{
          "monday": [{"start": "09:00", "end": "17:00"}],
          "tuesday": [{"start": "09:00", "end": "17:00"}],
          "wednesday": [{"start": "09:00", "end": "17:00"}],
          "thursday": [{"start": "09:00", "end": "17:00"}],
          "friday": [{"start": "09:00", "end": "17:00"}],
          "saturday": [],
          "sunday": []
        }',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE appointments (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        visitor_id bigint REFERENCES visitors (id) ON DELETE SET NULL,
        conversation_id bigint REFERENCES conversations (id) ON DELETE SET NULL,
        scheduled_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        -- ends_at plus the site's buffer at booking time: nothing else may start before it.
        blocked_until timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'confirmed'
          CHECK (status IN ('pending', 'confirmed', 'cancelled', 'completed')),
        visitor_name text,
        visitor_email text,
        visitor_phone text,
        button_label text,
        bot_template_id bigint,
        notes text CHECK (char_length(notes) <= 2000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (ends_at > scheduled_at),
        CHECK (blocked_until >= ends_at),
        CHECK (visitor_name IS NOT NULL OR visitor_email IS NOT NULL),
        CONSTRAINT appointments_no_overlap EXCLUDE USING gist (
          site_id WITH =,
          tstzrange(scheduled_at, blocked_until) WITH &&
        ) WHERE (status <> 'cancelled')
      )`);
    // The agent list: one site's appointments in time order, optionally of one status and
    // between two dates.
    await queryRunner.query(
      `CREATE INDEX appointments_site_schedule_idx ON appointments (site_id, scheduled_at, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX appointments_site_status_schedule_idx ON appointments (site_id, status, scheduled_at, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE appointments`);
    await queryRunner.query(`DROP TABLE appointment_settings`);
  }
}
