import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, sql } from '../../database/sql';
import type { CustomFields } from '../visitors/visitors.repository';

export interface PanelVisitorRow {
  id: string;
  site_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
  custom_fields: CustomFields;
  pre_chat_submitted: boolean;
  platform: string | null;
  app_id: string | null;
  app_version: string | null;
  page_url: string | null;
  page_title: string | null;
  referrer: string | null;
  user_agent: string | null;
  timezone: string | null;
  pages_seen: { url: string; title: string | null; at: string }[];
  /** The site's pre-chat field definitions (for the custom fields' labels), if it has any. */
  field_definitions: { key: string; label: string }[] | null;
  last_seen_at: Date | null;
  created_at: Date;
}

export interface PanelConversationRow {
  id: string;
  site_id: string;
  status: string;
  assigned_agent_id: string | null;
  started_at: Date;
  closed_at: Date | null;
  rating: number | null;
  review_comment: string | null;
}

export interface PanelTicketRow {
  id: string;
  ticket_number: string;
  subject: string;
  status: string;
  priority: string;
  created_at: Date;
}

export interface PanelAppointmentRow {
  id: string;
  status: string;
  scheduled_at: Date;
  ends_at: Date;
  notes: string | null;
}

/**
 * A read model for the agent's visitor panel: what the dashboard shows beside a conversation,
 * read from the visitor's rows in one organization (each list over the visitor's own index). Each
 * list holds at most 50, newest first.
 */
@Injectable()
export class VisitorPanelRepository {
  constructor(private readonly dataSource: DataSource) {}

  async visitor(organizationId: string, visitorId: string): Promise<PanelVisitorRow | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<PanelVisitorRow>`SELECT v.id, v.site_id, v.name, v.email, v.phone, v.country, v.language, v.custom_fields,
         v.pre_chat_submitted, v.platform, v.app_id, v.app_version, v.page_url, v.page_title,
         v.referrer, v.user_agent, v.timezone, v.pages_seen, v.last_seen_at, v.created_at,
         s.widget_settings->'pre_chat_form'->'fields' AS field_definitions
       FROM visitors v LEFT JOIN sites s ON s.id = v.site_id AND s.organization_id = v.organization_id
       WHERE v.organization_id = $1 AND v.id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  conversations(organizationId: string, visitorId: string): Promise<PanelConversationRow[]> {
    return sql(
      this.dataSource,
      handTyped<PanelConversationRow>`SELECT id, site_id, status, assigned_agent_id, started_at, closed_at, rating, review_comment
       FROM conversations WHERE visitor_id = $2 AND organization_id = $1 AND started_at IS NOT NULL
       ORDER BY id DESC LIMIT 50`,
      [organizationId, visitorId],
    );
  }

  /**
   * The visitor's tickets, and those filed under the visitor's address (by mail, the API) without
   * a visitor, regardless of case (tickets_customer_email_idx).
   */
  tickets(
    organizationId: string,
    visitorId: string,
    email: string | null,
  ): Promise<PanelTicketRow[]> {
    return sql(
      this.dataSource,
      handTyped<PanelTicketRow>`SELECT id, ticket_number, subject, status, priority, created_at FROM tickets
       WHERE organization_id = $1
         AND (visitor_id = $2 OR lower(customer_email) = lower($3::text))
       ORDER BY id DESC LIMIT 50`,
      [organizationId, visitorId, email],
    );
  }

  appointments(organizationId: string, visitorId: string): Promise<PanelAppointmentRow[]> {
    return sql(
      this.dataSource,
      handTyped<PanelAppointmentRow>`SELECT id, status, scheduled_at, ends_at, notes
       FROM appointments WHERE visitor_id = $2 AND organization_id = $1
       ORDER BY scheduled_at DESC LIMIT 50`,
      [organizationId, visitorId],
    );
  }
}
