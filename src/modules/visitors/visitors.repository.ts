import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { escapeLike, handTyped, pageOf, query, sql } from '../../database/sql';

/** A visitor's own fields (`visitors.custom_fields`, jsonb): key to text. */
export interface CustomFields {
  [key: string]: string;
}

export interface VisitorRow {
  id: string;
  organization_id: string;
  site_id: string;
  visitor_uid: string;
  name: string | null;
  email: string | null;
  country: string | null;
  language: string | null;
  last_seen_at: Date | null;
  created_at: Date;
}

export interface VisitorDetailRow extends VisitorRow {
  conversations_count: string;
  tickets_count: string;
}

/** What the widget knows and shows of its visitor. */
export interface WidgetVisitorRow {
  id: string;
  organization_id: string;
  site_id: string;
  visitor_uid: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom_fields: CustomFields;
  pre_chat_submitted: boolean;
  /** When the visitor agreed to the site's consent text (`widget_settings.consent`). */
  consented_at: Date | null;
}

/** What `init` may tell about the visitor; undefined fields are left as they are. */
export interface VisitorContext {
  name?: string;
  email?: string;
  phone?: string;
  language?: string;
  /** ISO 3166-1 alpha-2, from the proxy's country header (see visitor-country.ts). */
  country?: string;
  pageUrl?: string;
  pageTitle?: string;
  platform?: string;
  appId?: string;
  appVersion?: string;
  appBuild?: string;
}

export interface VisitorFilter {
  search?: string;
  siteId?: number;
}

@Injectable()
export class VisitorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of visitors, newest first, with the total for the filter. */
  async page(
    organizationId: string,
    filter: VisitorFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: VisitorRow[]; total: number }> {
    // A filter not given is NULL, which each statement's custom plan folds away. The search
    // text is the same expression as the trigram index visitors_search_trgm_idx.
    return pageOf(
      this.dataSource,
      {
        rows: query<VisitorRow>`SELECT id, organization_id, site_id, visitor_uid, name, email, country, language, last_seen_at, created_at
           FROM visitors WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
             AND ($3::text IS NULL
               OR (coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || visitor_uid::text) ILIKE '%' || $3 || '%')
           ORDER BY id DESC LIMIT $4 OFFSET $5`,
        total: query<{ total: string }>`SELECT count(*) AS total
           FROM visitors WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
             AND ($3::text IS NULL
               OR (coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || visitor_uid::text) ILIKE '%' || $3 || '%')`,
      },
      [organizationId, filter.siteId ?? null, filter.search ? escapeLike(filter.search) : null],
      page,
    );
  }

  async find(organizationId: string, visitorId: string): Promise<VisitorRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<VisitorRow>`SELECT id, organization_id, site_id, visitor_uid, name, email, country, language, last_seen_at, created_at FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /** The visitor with its started conversations and its tickets counted. */
  async findWithCounts(
    organizationId: string,
    visitorId: string,
  ): Promise<VisitorDetailRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<VisitorDetailRow>`SELECT id, organization_id, site_id, visitor_uid, name, email, country, language, last_seen_at, created_at,
         COALESCE((SELECT count(*) FROM conversations c
           WHERE c.visitor_id = visitors.id AND c.organization_id = visitors.organization_id
             AND c.started_at IS NOT NULL), 0) AS conversations_count,
         COALESCE((SELECT count(*) FROM tickets t
           WHERE t.visitor_id = visitors.id AND t.organization_id = visitors.organization_id), 0) AS tickets_count
       FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /** The id of the visitor `visitorUid` of the site, if there is one. */
  async idByUid(
    organizationId: string,
    siteId: string,
    visitorUid: string,
  ): Promise<string | undefined> {
    if (!UUID.test(visitorUid)) return undefined;
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`SELECT id FROM visitors WHERE organization_id = $1 AND site_id = $2 AND visitor_uid = $3
         AND session_ended_at IS NULL`,
      [organizationId, siteId, visitorUid],
    );
    return rows[0]?.id;
  }

  /** Whether the visitor's session goes on (it exists and was not ended). */
  async sessionLive(organizationId: string, visitorId: string, siteId?: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        found: number;
      }>`SELECT 1 AS found FROM visitors WHERE organization_id = $1 AND id = $2 AND session_ended_at IS NULL
         AND ($3::bigint IS NULL OR site_id = $3)`,
      [organizationId, visitorId, siteId ?? null],
    );
    return rows.length > 0;
  }

  /** Ends the visitor's session for good: its tokens and its UID stop working. */
  async endSession(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE visitors SET session_ended_at = now()
       WHERE organization_id = $1 AND id = $2 AND session_ended_at IS NULL`,
      [organizationId, visitorId],
    );
  }

  /** The visitor agreed to the consent text: the first agreement's time is kept. */
  async recordConsent(organizationId: string, visitorId: string): Promise<Date | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<{
        consented_at: Date;
      }>`UPDATE visitors SET consented_at = COALESCE(consented_at, now()), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING consented_at`,
      [organizationId, visitorId],
    );
    return rows[0]?.consented_at;
  }

  /** Whether some site has a visitor with this UID. */
  async uidExists(visitorUid: string): Promise<boolean> {
    if (!UUID.test(visitorUid)) return false;
    const rows = await sql(
      this.dataSource,
      query<{ found: number }>`SELECT 1 AS found FROM visitors WHERE visitor_uid = $1 LIMIT 1`,
      [visitorUid],
    );
    return rows.length > 0;
  }

  async widgetVisitor(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<WidgetVisitorRow | undefined> {
    const rows = await sql(
      manager,
      query<WidgetVisitorRow>`SELECT id, organization_id, site_id, visitor_uid, name, email, phone, custom_fields, pre_chat_submitted, consented_at FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /** A new visitor of the site with a fresh UID. */
  async insert(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    context: VisitorContext,
  ): Promise<WidgetVisitorRow> {
    const rows = await sql(
      manager,
      query<WidgetVisitorRow>`INSERT INTO visitors (organization_id, site_id, visitor_uid, name, email, phone, language,
         page_url, page_title, platform, app_id, app_version, app_build, country, last_seen_at)
       VALUES ($1, $2, gen_random_uuid(), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
       RETURNING id, organization_id, site_id, visitor_uid, name, email, phone, custom_fields, pre_chat_submitted, consented_at`,
      [organizationId, siteId, ...contextValues(context)],
    );
    return rows[0];
  }

  /** Records a returning visitor's context (only what was sent) and when it was seen. */
  async resume(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    context: VisitorContext,
  ): Promise<WidgetVisitorRow> {
    const rows = await sql(
      manager,
      query<WidgetVisitorRow>`UPDATE visitors SET
         name = COALESCE($2, name), email = COALESCE($3, email), phone = COALESCE($4, phone),
         language = COALESCE($5, language), page_url = COALESCE($6, page_url),
         page_title = COALESCE($7, page_title), platform = COALESCE($8, platform),
         app_id = COALESCE($9, app_id), app_version = COALESCE($10, app_version),
         app_build = COALESCE($11, app_build), country = COALESCE($12, country),
         last_seen_at = now(), updated_at = now()
       WHERE id = $1 AND organization_id = $13 RETURNING id, organization_id, site_id, visitor_uid, name, email, phone, custom_fields, pre_chat_submitted, consented_at`,
      [visitorId, ...contextValues(context), organizationId],
    );
    return rows[0];
  }

  /** The pre-chat form's answers: built-in fields and custom ones. */
  async saveProfile(
    organizationId: string,
    visitorId: string,
    profile: {
      name?: string;
      email?: string;
      phone?: string;
      customFields: Record<string, string>;
    },
  ): Promise<WidgetVisitorRow> {
    const rows = await sql(
      this.dataSource,
      query<WidgetVisitorRow>`UPDATE visitors SET
         name = COALESCE($2, name), email = COALESCE($3, email), phone = COALESCE($4, phone),
         custom_fields = custom_fields || $5::jsonb, pre_chat_submitted = true,
         last_seen_at = now(), updated_at = now()
       WHERE id = $1 AND organization_id = $6 RETURNING id, organization_id, site_id, visitor_uid, name, email, phone, custom_fields, pre_chat_submitted, consented_at`,
      [
        visitorId,
        profile.name ?? null,
        profile.email ?? null,
        profile.phone ?? null,
        JSON.stringify(profile.customFields),
        organizationId,
      ],
    );
    return rows[0];
  }

  /** The address the visitor asked to be answered at (the widget's "Get notified by email"). */
  async saveEmail(
    organizationId: string,
    visitorId: string,
    email: string,
  ): Promise<WidgetVisitorRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<WidgetVisitorRow>`UPDATE visitors SET email = $2, last_seen_at = now(), updated_at = now()
       WHERE id = $1 AND organization_id = $3 RETURNING id, organization_id, site_id, visitor_uid, name, email, phone, custom_fields, pre_chat_submitted, consented_at`,
      [visitorId, email, organizationId],
    );
    return rows[0];
  }
  /**
   * Where the visitor is (issue 26): the page (also added to the last ten pages seen, unless it
   * is the one they were on), and, when given, the referrer, user agent and time zone.
   */
  async recordContext(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    context: {
      pageUrl?: string;
      pageTitle?: string;
      referrer?: string;
      userAgent?: string;
      timezone?: string;
    },
  ): Promise<boolean> {
    const rows = await sql(
      manager,
      query<{ id: string }>`UPDATE visitors SET
         page_url = COALESCE($3, page_url), page_title = COALESCE($4, page_title),
         referrer = COALESCE($5, referrer), user_agent = COALESCE($6, user_agent),
         timezone = COALESCE($7, timezone),
         pages_seen = CASE
           WHEN $3::text IS NULL OR pages_seen->-1->>'url' = $3 THEN pages_seen
           ELSE (SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb) FROM (
             SELECT e, n FROM jsonb_array_elements(pages_seen || jsonb_build_array(
               jsonb_build_object('url', $3::text, 'title', $4::text, 'at', now())))
               WITH ORDINALITY AS t(e, n) ORDER BY n DESC LIMIT 10) last)
         END,
         last_seen_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [
        organizationId,
        visitorId,
        context.pageUrl ?? null,
        context.pageTitle ?? null,
        context.referrer ?? null,
        context.userAgent ?? null,
        context.timezone ?? null,
      ],
    );
    return rows.length > 0;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const contextValues = (context: VisitorContext) => [
  context.name ?? null,
  context.email ?? null,
  context.phone ?? null,
  context.language ?? null,
  context.pageUrl ?? null,
  context.pageTitle ?? null,
  context.platform ?? null,
  context.appId ?? null,
  context.appVersion ?? null,
  context.appBuild ?? null,
  context.country ?? null,
];
