import { Injectable } from '@nestjs/common';
import Bowser from 'bowser';
import { AppError } from '../../common/errors/app-error';
import { AccountLoginService } from '../account-login/account-login.service';
import type { VisitorPanelDto } from './visitor-panel.dto';
import { type PanelVisitorRow, VisitorPanelRepository } from './visitor-panel.repository';
import { iso } from '../../common/time/iso';

const idOrNull = (value: string | null) => (value === null ? null : Number(value));

/** The custom fields in the order the site defines them, each by its label (else its key). */
function labelledFields(visitor: PanelVisitorRow) {
  const definitions = Array.isArray(visitor.field_definitions) ? visitor.field_definitions : [];
  const order = (key: string) => {
    const index = definitions.findIndex((field) => field.key === key);
    return index < 0 ? definitions.length : index;
  };
  return Object.entries(visitor.custom_fields)
    .sort(([a], [b]) => order(a) - order(b))
    .map(([key, value]) => ({
      key,
      label: definitions.find((field) => field.key === key)?.label || key,
      value:
        value === null || value === undefined
          ? ''
          : typeof value === 'string'
            ? value
            : JSON.stringify(value),
    }));
}

/** The browser and operating system, read from the user agent the widget's init came with. */
function browserOf(userAgent: string | null) {
  if (!userAgent) return { name: null, version: null, os: null, os_version: null };
  const parsed = Bowser.parse(userAgent);
  return {
    name: parsed.browser.name ?? null,
    version: parsed.browser.version ?? null,
    os: parsed.os.name ?? null,
    os_version: parsed.os.versionName ?? parsed.os.version ?? null,
  };
}

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
      this.repository.tickets(organizationId, visitorId, visitor.email),
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
      custom_field_list: labelledFields(visitor),
      current_page: { url: visitor.page_url, title: visitor.page_title },
      pages_seen: [...visitor.pages_seen].reverse().map((page) => ({
        url: page.url,
        title: page.title ?? null,
        seen_at: iso(new Date(page.at)),
      })),
      referrer: visitor.referrer,
      browser: browserOf(visitor.user_agent),
      timezone: visitor.timezone,
      device: {
        platform: visitor.platform,
        app_id: visitor.app_id,
        app_version: visitor.app_version,
      },
      last_seen_at: iso(visitor.last_seen_at),
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
        closed_at: iso(row.closed_at),
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
