import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { handTyped, pageOf, query, sql } from '../../database/sql';
import type { BlockedRange } from './availability';
import type { WorkingHours } from '../../common/time/working-hours';

export type AppointmentStatus = 'pending' | 'confirmed' | 'cancelled' | 'completed';
export const APPOINTMENT_STATUSES: readonly AppointmentStatus[] = [
  'pending',
  'confirmed',
  'cancelled',
  'completed',
];

/** A site of the organization and the time zone its appointments are read in. */
export interface AppointmentSite {
  id: string;
  timezone: string;
}

export interface SettingsRow {
  enabled: boolean;
  duration_minutes: number;
  buffer_minutes: number;
  slot_interval_minutes: number;
  advance_days: number;
  min_notice_hours: number;
  working_hours: Partial<WorkingHours>;
}

/** The settings columns a change may set; a field left undefined keeps its value. */
export type SettingsChanges = Partial<SettingsRow>;

export interface AppointmentRow {
  id: string;
  site_id: string;
  visitor_id: string | null;
  conversation_id: string | null;
  scheduled_at: Date;
  ends_at: Date;
  status: AppointmentStatus;
  visitor_name: string | null;
  visitor_email: string | null;
  visitor_phone: string | null;
  button_label: string | null;
  bot_template_id: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AppointmentForMail extends AppointmentRow {
  site_name: string;
  timezone: string;
  visitor_address: string | null;
  visitor_display_name: string | null;
  language: string | null;
  assigned_agent_id: string | null;
  /** Status changes so far: the invite's SEQUENCE. */
  revision: number;
}

export interface NewAppointment {
  siteId: string;
  visitorId: string;
  conversationId: string | null;
  scheduledAt: Date;
  endsAt: Date;
  blockedUntil: Date;
  visitorName: string | null;
  visitorEmail: string | null;
  visitorPhone: string | null;
  buttonLabel: string | null;
  botTemplateId: number | null;
}

export interface AppointmentFilter {
  status?: AppointmentStatus;
  /** Appointments starting at or after this instant. */
  from?: Date;
  /** Appointments starting before this instant. */
  before?: Date;
}

/** PostgreSQL's answer when an exclusion constraint (here: no overlapping bookings) refuses a row. */
const EXCLUSION_VIOLATION = '23P01';

export const isOverlapRefused = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === EXCLUSION_VIOLATION;

@Injectable()
export class AppointmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** `siteId` when it is a site of the organization; without it, the first site (lowest id). */
  async site(organizationId: string, siteId?: string): Promise<AppointmentSite | undefined> {
    const rows = await sql(
      this.dataSource,
      query<AppointmentSite>`SELECT id, timezone FROM sites WHERE organization_id = $1 AND ($2::bigint IS NULL OR id = $2)
       ORDER BY id LIMIT 1`,
      [organizationId, siteId ?? null],
    );
    return rows[0];
  }

  /**
   * The site's settings, made with the schema's defaults on first use (sites are created
   * elsewhere, so their settings row comes when appointments first need it). Inside a
   * transaction the row stays locked until the transaction ends.
   */
  async settings(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
  ): Promise<SettingsRow> {
    const lock = manager.queryRunner?.isTransactionActive === true;
    const read = () =>
      sql(
        manager,
        lock
          ? handTyped<SettingsRow>`SELECT enabled, duration_minutes, buffer_minutes, slot_interval_minutes, advance_days, min_notice_hours, working_hours
             FROM appointment_settings
             WHERE organization_id = $1 AND site_id = $2 FOR UPDATE`
          : handTyped<SettingsRow>`SELECT enabled, duration_minutes, buffer_minutes, slot_interval_minutes, advance_days, min_notice_hours, working_hours
             FROM appointment_settings
             WHERE organization_id = $1 AND site_id = $2`,
        [organizationId, siteId],
      );
    const [found] = await read();
    if (found) return found;
    await sql(
      manager,
      query`INSERT INTO appointment_settings (organization_id, site_id) VALUES ($1, $2)
       ON CONFLICT (site_id) DO NOTHING`,
      [organizationId, siteId],
    );
    const [made] = await read();
    return made;
  }

  async updateSettings(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    changes: SettingsChanges,
  ): Promise<SettingsRow> {
    // A field not given is NULL and keeps its value (every settings column is NOT NULL).
    const rows = await sql(
      manager,
      handTyped<SettingsRow>`UPDATE appointment_settings SET updated_at = now(),
         enabled = coalesce($3, enabled), duration_minutes = coalesce($4, duration_minutes),
         buffer_minutes = coalesce($5, buffer_minutes),
         slot_interval_minutes = coalesce($6, slot_interval_minutes),
         advance_days = coalesce($7, advance_days), min_notice_hours = coalesce($8, min_notice_hours),
         working_hours = coalesce($9::jsonb, working_hours)
       WHERE organization_id = $1 AND site_id = $2
       RETURNING enabled, duration_minutes, buffer_minutes, slot_interval_minutes, advance_days, min_notice_hours, working_hours`,
      [
        organizationId,
        siteId,
        changes.enabled ?? null,
        changes.duration_minutes ?? null,
        changes.buffer_minutes ?? null,
        changes.slot_interval_minutes ?? null,
        changes.advance_days ?? null,
        changes.min_notice_hours ?? null,
        changes.working_hours === undefined ? null : JSON.stringify(changes.working_hours),
      ],
    );
    return rows[0];
  }

  /** The blocked ranges (time plus buffer) of the site's live appointments touching a window. */
  blocked(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    window: { from: Date; to: Date },
  ): Promise<BlockedRange[]> {
    // The same expression and predicate as the exclusion constraint, so its index serves this.
    return sql(
      manager,
      query<BlockedRange>`SELECT scheduled_at AS start, blocked_until AS "end" FROM appointments
       WHERE site_id = $2 AND status <> 'cancelled' AND organization_id = $1
         AND tstzrange(scheduled_at, blocked_until) && tstzrange($3, $4)`,
      [organizationId, siteId, window.from, window.to],
    );
  }

  /** The conversation when it is one of the visitor's (started or not, open or closed). */
  async visitorConversation(
    organizationId: string,
    visitorId: string,
    conversationId: string,
  ): Promise<{ id: string; started: boolean } | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
        started: boolean;
      }>`SELECT id, started_at IS NOT NULL AS started FROM conversations
       WHERE organization_id = $1 AND visitor_id = $2 AND id = $3`,
      [organizationId, visitorId, conversationId],
    );
    return rows[0];
  }

  /**
   * How many upcoming (pending or confirmed, starting after `now`) appointments the visitor
   * holds, under a lock that makes a second booking of the same visitor wait for this one.
   */
  async lockUpcomingOfVisitor(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    now: Date,
  ): Promise<number> {
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7009, hashint8($1::bigint))`,
      [visitorId],
    );
    const [{ count }] = await sql(
      manager,
      query<{ count: number }>`SELECT count(*)::int AS count FROM appointments
        WHERE organization_id = $1 AND visitor_id = $2 AND status IN ('pending', 'confirmed')
          AND scheduled_at > $3`,
      [organizationId, visitorId, now],
    );
    return count;
  }

  /**
   * Upcoming appointments visitors booked on the site that no agent has changed since, with the
   * site's bookings serialized for the transaction so the cap holds under concurrent bookings.
   */
  async lockUnhandledOfSite(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    now: Date,
  ): Promise<number> {
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7010, hashint8($1::bigint))`,
      [siteId],
    );
    const [{ count }] = await sql(
      manager,
      query<{ count: number }>`SELECT count(*)::int AS count FROM appointments
        WHERE organization_id = $1 AND site_id = $2 AND visitor_id IS NOT NULL
          AND status IN ('pending', 'confirmed') AND scheduled_at > $3
          AND updated_at = created_at`,
      [organizationId, siteId, now],
    );
    return count;
  }

  /** Inserts a confirmed appointment; overlapping a live one fails with `isOverlapRefused`. */
  async insert(
    manager: EntityManager,
    organizationId: string,
    appointment: NewAppointment,
  ): Promise<AppointmentRow> {
    const rows = await sql(
      manager,
      query<AppointmentRow>`INSERT INTO appointments (organization_id, site_id, visitor_id, conversation_id, scheduled_at,
         ends_at, blocked_until, status, visitor_name, visitor_email, visitor_phone, button_label,
         bot_template_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'confirmed', $8, $9, $10, $11, $12)
       RETURNING id, site_id, visitor_id, conversation_id, scheduled_at, ends_at, status, visitor_name,
  visitor_email, visitor_phone, button_label, bot_template_id, notes, created_at, updated_at`,
      [
        organizationId,
        appointment.siteId,
        appointment.visitorId,
        appointment.conversationId,
        appointment.scheduledAt,
        appointment.endsAt,
        appointment.blockedUntil,
        appointment.visitorName,
        appointment.visitorEmail,
        appointment.visitorPhone,
        appointment.buttonLabel,
        appointment.botTemplateId,
      ],
    );
    return rows[0];
  }

  /** One site's appointments in time order (then id), optionally of one status and time span. */
  page(
    organizationId: string,
    siteId: string,
    filter: AppointmentFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: AppointmentRow[]; total: number }> {
    // A filter not given is NULL, which each statement's custom plan folds away.
    return pageOf(
      this.dataSource,
      {
        rows: query<AppointmentRow>`SELECT id, site_id, visitor_id, conversation_id, scheduled_at, ends_at, status, visitor_name,
             visitor_email, visitor_phone, button_label, bot_template_id, notes, created_at, updated_at
           FROM appointments WHERE organization_id = $1 AND site_id = $2
             AND ($3::text IS NULL OR status = $3)
             AND ($4::timestamptz IS NULL OR scheduled_at >= $4)
             AND ($5::timestamptz IS NULL OR scheduled_at < $5)
           ORDER BY scheduled_at, id LIMIT $6 OFFSET $7`,
        total: query<{ total: string }>`SELECT count(*) AS total
           FROM appointments WHERE organization_id = $1 AND site_id = $2
             AND ($3::text IS NULL OR status = $3)
             AND ($4::timestamptz IS NULL OR scheduled_at >= $4)
             AND ($5::timestamptz IS NULL OR scheduled_at < $5)`,
      },
      [organizationId, siteId, filter.status ?? null, filter.from ?? null, filter.before ?? null],
      page,
    );
  }

  /**
   * Sets the status and, when given, the notes; undefined when the appointment is not the
   * organization's. Reviving a cancelled appointment whose time was booked since fails with
   * `isOverlapRefused`.
   */
  /**
   * Sets the status and optionally the notes, inside the caller's transaction; answers the row
   * and the status it had before (the row stays locked until the transaction ends).
   */
  async update(
    manager: EntityManager,
    organizationId: string,
    appointmentId: string,
    changes: { status: AppointmentStatus; notes?: string | null },
  ): Promise<{ appointment: AppointmentRow; previousStatus: AppointmentStatus } | undefined> {
    const [before] = await sql(
      manager,
      query<{
        status: AppointmentStatus;
      }>`SELECT status FROM appointments WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, appointmentId],
    );
    if (!before) return undefined;
    const [appointment] = await sql(
      manager,
      query<AppointmentRow>`UPDATE appointments SET status = $3,
         notes = CASE WHEN $4::boolean THEN $5 ELSE notes END, updated_at = now(),
         revision = revision + CASE WHEN status = $3 THEN 0 ELSE 1 END
       WHERE organization_id = $1 AND id = $2 RETURNING id, site_id, visitor_id, conversation_id, scheduled_at, ends_at, status, visitor_name,
  visitor_email, visitor_phone, button_label, bot_template_id, notes, created_at, updated_at`,
      [
        organizationId,
        appointmentId,
        changes.status,
        changes.notes !== undefined,
        changes.notes ?? null,
      ],
    );
    return { appointment, previousStatus: before.status };
  }

  /**
   * What the mails about an appointment need beside the row: the site's name and time zone, the
   * visitor's address and language, and who looks after it (the conversation's assignee).
   */
  async forMail(
    organizationId: string,
    appointmentId: string,
  ): Promise<AppointmentForMail | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<AppointmentForMail>`SELECT a.id, a.site_id, a.visitor_id, a.conversation_id, a.scheduled_at, a.ends_at, a.status,
              a.visitor_name, a.visitor_email, a.visitor_phone, a.button_label, a.bot_template_id, a.notes,
              a.created_at, a.updated_at,
              s.name AS site_name, s.timezone, v.email AS visitor_address, v.name AS visitor_display_name,
              COALESCE(c.locale, v.language) AS language, c.assigned_agent_id, a.revision
         FROM appointments a
         JOIN sites s ON s.id = a.site_id AND s.organization_id = a.organization_id
         LEFT JOIN visitors v ON v.id = a.visitor_id AND v.organization_id = a.organization_id
         LEFT JOIN conversations c ON c.id = a.conversation_id AND c.organization_id = a.organization_id
        WHERE a.organization_id = $1 AND a.id = $2`,
      [organizationId, appointmentId],
    );
    return rows[0];
  }
}
