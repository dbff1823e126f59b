import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AccountLoginService } from '../account-login/account-login.service';
import type { VisitorPanelDto } from './visitor-panel.dto';
import { VisitorPanelRepository } from './visitor-panel.repository';

const iso = (value: Date) => new Date(value).toISOString();
const isoOrNull = (value: Date | null) => (value ? iso(value) : null);
const idOrNull = (value: string | null) => (value === null ? null : Number(value));

/** Everything an agent sees about a visitor beside the conversation. */
@Injectable()
export class VisitorPanelService {
  constructor(
    private readonly repository: VisitorPanelRepository,
    private readonly accountLogin: AccountLoginService,
  ) {}

  async panel(organizationId: string, visitorId: string): Promise<VisitorPanelDto> {
    const visitor = await this.repository.visitor(organizationId, visitorId);
    if (!visitor) throw AppError.notFound();
    const [conversations, tickets, appointments, login] = await Promise.all([
      this.repository.conversations(organizationId, visitorId),
      this.repository.tickets(organizationId, visitorId),
      this.repository.appointments(organizationId, visitorId),
      // The same rule as the widget's `account_login`: valid, and against the site's current table.
      this.accountLogin.state({
        organizationId,
        siteId: visitor.site_id,
        visitorId,
        allowedDomains: [],
      }),
    ]);
    return {
      id: Number(visitor.id),
      site_id: Number(visitor.site_id),
      name: visitor.name,
      email: visitor.email,
      phone: visitor.phone,
      country: visitor.country,
      language: visitor.language,
      custom_fields: visitor.custom_fields,
      pre_chat_submitted: visitor.pre_chat_submitted,
      current_page: { url: visitor.page_url, title: visitor.page_title },
      device: {
        platform: visitor.platform,
        app_id: visitor.app_id,
        app_version: visitor.app_version,
      },
      last_seen_at: isoOrNull(visitor.last_seen_at),
      created_at: iso(visitor.created_at),
      account_login: {
        logged_in: login !== undefined,
        identifier: login?.identifier ?? null,
        verified_at: login ? iso(login.verifiedAt) : null,
      },
      conversations: conversations.map((row) => ({
        id: Number(row.id),
        site_id: Number(row.site_id),
        status: row.status,
        assigned_agent_id: idOrNull(row.assigned_agent_id),
        started_at: iso(row.started_at),
        closed_at: isoOrNull(row.closed_at),
        rating: row.rating,
        review_comment: row.review_comment,
      })),
      tickets: tickets.map((row) => ({
        id: Number(row.id),
        ticket_number: row.ticket_number,
        subject: row.subject,
        status: row.status,
        priority: row.priority,
        created_at: iso(row.created_at),
      })),
      appointments: appointments.map((row) => ({
        id: Number(row.id),
        status: row.status,
        scheduled_at: iso(row.scheduled_at),
        ends_at: iso(row.ends_at),
        notes: row.notes,
      })),
    };
  }
}
