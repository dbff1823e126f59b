import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';

export interface PanelVisitorRow {
  id: string;
  site_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
  custom_fields: Record<string, unknown>;
  pre_chat_submitted: boolean;
  platform: string | null;
  app_id: string | null;
  app_version: string | null;
  page_url: string | null;
  page_title: string | null;
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

/** The most a panel lists of each kind, newest first. */
const LIMIT = 50;

/**
 * A read model for the agent's visitor panel: what the dashboard shows beside a conversation,
 * read from the visitor's rows in one organization (each list over the visitor's own index).
 */
@Injectable()
export class VisitorPanelRepository {
  constructor(private readonly dataSource: DataSource) {}

  async visitor(organizationId: string, visitorId: string): Promise<PanelVisitorRow | undefined> {
    const rows = await sql<PanelVisitorRow>(
      this.dataSource,
      `SELECT id, site_id, name, email, phone, country, language, custom_fields,
         pre_chat_submitted, platform, app_id, app_version, page_url, page_title, last_seen_at,
         created_at
       FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  conversations(organizationId: string, visitorId: string): Promise<PanelConversationRow[]> {
    return sql<PanelConversationRow>(
      this.dataSource,
      `SELECT id, site_id, status, assigned_agent_id, started_at, closed_at, rating, review_comment
       FROM conversations WHERE visitor_id = $2 AND organization_id = $1 AND started_at IS NOT NULL
       ORDER BY id DESC LIMIT ${LIMIT}`,
      [organizationId, visitorId],
    );
  }

  tickets(organizationId: string, visitorId: string): Promise<PanelTicketRow[]> {
    return sql<PanelTicketRow>(
      this.dataSource,
      `SELECT id, ticket_number, subject, status, priority, created_at
       FROM tickets WHERE visitor_id = $2 AND organization_id = $1 ORDER BY id DESC LIMIT ${LIMIT}`,
      [organizationId, visitorId],
    );
  }

  appointments(organizationId: string, visitorId: string): Promise<PanelAppointmentRow[]> {
    return sql<PanelAppointmentRow>(
      this.dataSource,
      `SELECT id, status, scheduled_at, ends_at, notes
       FROM appointments WHERE visitor_id = $2 AND organization_id = $1
       ORDER BY scheduled_at DESC LIMIT ${LIMIT}`,
      [organizationId, visitorId],
    );
  }
}
