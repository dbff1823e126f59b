import type { CustomFields, VisitorRow, WidgetVisitorRow } from './visitors.repository';

export type { CustomFields };

/**
 * A visitor as the other features see it (issue 32, point 7): what `VisitorsService.get`
 * answers, mapped once from the table's row here, so no feature but this one depends on
 * `VisitorRow`.
 */
export interface VisitorRecord {
  id: string;
  organizationId: string;
  siteId: string;
  visitorUid: string;
  name: string | null;
  email: string | null;
  country: string | null;
  language: string | null;
  lastSeenAt: Date | null;
  createdAt: Date;
}

/**
 * What the widget knows and shows of its visitor: what `VisitorsService` answers to the widget,
 * account login and transcripts (`openSession`, `widgetVisitor`, `saveProfile`, `saveEmail`).
 */
export interface WidgetVisitorRecord {
  id: string;
  organizationId: string;
  siteId: string;
  visitorUid: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  customFields: CustomFields;
  preChatSubmitted: boolean;
  /** When the visitor agreed to the site's consent text (`widget_settings.consent`). */
  consentedAt: Date | null;
}

export const toVisitorRecord = (row: VisitorRow): VisitorRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  siteId: row.site_id,
  visitorUid: row.visitor_uid,
  name: row.name,
  email: row.email,
  country: row.country,
  language: row.language,
  lastSeenAt: row.last_seen_at,
  createdAt: row.created_at,
});

export const toWidgetVisitorRecord = (row: WidgetVisitorRow): WidgetVisitorRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  siteId: row.site_id,
  visitorUid: row.visitor_uid,
  name: row.name,
  email: row.email,
  phone: row.phone,
  customFields: row.custom_fields,
  preChatSubmitted: row.pre_chat_submitted,
  consentedAt: row.consented_at,
});
