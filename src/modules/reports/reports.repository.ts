import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';

export interface ReportFilter {
  start: Date;
  end: Date;
  timezone: string;
  siteId?: string;
  agentId?: string;
}

/** `all`, or the agent or site a row of a per-agent or per-site breakdown is about. */
export interface Grouped {
  scope: 'all' | 'agent' | 'site';
  key: string | null;
}

export interface DayRow {
  day: string;
  conversations: string;
  missed: string;
}

export interface TimesRow extends Grouped {
  conversations: string;
  missed: string;
  first_response_count: string;
  first_response_median: number | null;
  first_response_p90: number | null;
  resolution_count: string;
  resolution_median: number | null;
  resolution_p90: number | null;
  rating_count: string;
  rating_average: number | null;
  rating_1: string;
  rating_2: string;
  rating_3: string;
  rating_4: string;
  rating_5: string;
}

/**
 * Every statement reads the conversations started in the range (conversations_started_idx),
 * optionally of one site and one assignee, with the parameters of `parameters`. The kept columns
 * first_response_at, missed_at, closed_at and rating answer every figure without reading a message.
 */
@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The time zone of the site, or of the organization's first site; undefined for another's site. */
  async timezone(organizationId: string, siteId?: string): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        timezone: string;
      }>`SELECT timezone FROM sites WHERE organization_id = $1 AND ($2::bigint IS NULL OR id = $2)
       ORDER BY id LIMIT 1`,
      [organizationId, siteId ?? null],
    );
    return rows[0]?.timezone;
  }

  perDay(organizationId: string, filter: ReportFilter): Promise<DayRow[]> {
    return sql(
      this.dataSource,
      handTyped<DayRow>`SELECT to_char(c.started_at AT TIME ZONE $6, 'YYYY-MM-DD') AS day, count(*) AS conversations,
         count(*) FILTER (WHERE c.missed_at IS NOT NULL) AS missed
       FROM conversations c
       WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.started_at >= $2
         AND c.started_at < $3 AND ($4::bigint IS NULL OR c.site_id = $4)
         AND ($5::bigint IS NULL OR c.assigned_agent_id = $5)
       GROUP BY 1 ORDER BY 1`,
      [...this.parameters(organizationId, filter), filter.timezone],
    );
  }

  /**
   * Every figure for the whole range and per site (one pass), and per member (another): a
   * member is credited with the conversations assigned to them (volume, missed, ratings), the
   * first replies they sent and the chats they closed (a chat the visitor ended: its assignee),
   * not everything of the chats they hold at the end (issue 26).
   */
  async grouped(organizationId: string, filter: ReportFilter): Promise<TimesRow[]> {
    const parameters = this.parameters(organizationId, filter);
    const [rows, members] = await Promise.all([
      sql(
        this.dataSource,
        handTyped<
          TimesRow & { g_site: number; site: string }
        >`SELECT GROUPING(c.site_id) AS g_site, c.site_id AS site,
           count(*) AS conversations,
           count(*) FILTER (WHERE c.missed_at IS NOT NULL) AS missed,
           count(c.first_response_at) AS first_response_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_response_at - c.started_at))
             AS first_response_median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_response_at - c.started_at))
             AS first_response_p90,
           count(c.closed_at) AS resolution_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.closed_at - c.started_at)) AS resolution_median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM c.closed_at - c.started_at)) AS resolution_p90,
           count(c.rating) AS rating_count,
           avg(c.rating)::float8 AS rating_average,
           count(*) FILTER (WHERE c.rating = 1) AS rating_1,
           count(*) FILTER (WHERE c.rating = 2) AS rating_2,
           count(*) FILTER (WHERE c.rating = 3) AS rating_3,
           count(*) FILTER (WHERE c.rating = 4) AS rating_4,
           count(*) FILTER (WHERE c.rating = 5) AS rating_5
         FROM conversations c
         WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.started_at >= $2
           AND c.started_at < $3 AND ($4::bigint IS NULL OR c.site_id = $4)
           AND ($5::bigint IS NULL OR c.assigned_agent_id = $5)
         GROUP BY GROUPING SETS ((), (c.site_id))
         ORDER BY g_site DESC, site`,
        parameters,
      ),
      sql(
        this.dataSource,
        handTyped<TimesRow & { agent: string | null }>`SELECT r.agent,
           count(*) FILTER (WHERE r.role = 'assignee') AS conversations,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.missed_at IS NOT NULL) AS missed,
           count(c.first_response_at) FILTER (WHERE r.role = 'first') AS first_response_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_response_at - c.started_at))
             FILTER (WHERE r.role = 'first') AS first_response_median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_response_at - c.started_at))
             FILTER (WHERE r.role = 'first') AS first_response_p90,
           count(c.closed_at) FILTER (WHERE r.role = 'closer') AS resolution_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.closed_at - c.started_at))
             FILTER (WHERE r.role = 'closer') AS resolution_median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM c.closed_at - c.started_at))
             FILTER (WHERE r.role = 'closer') AS resolution_p90,
           count(c.rating) FILTER (WHERE r.role = 'assignee') AS rating_count,
           (avg(c.rating) FILTER (WHERE r.role = 'assignee'))::float8 AS rating_average,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.rating = 1) AS rating_1,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.rating = 2) AS rating_2,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.rating = 3) AS rating_3,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.rating = 4) AS rating_4,
           count(*) FILTER (WHERE r.role = 'assignee' AND c.rating = 5) AS rating_5
         FROM conversations c
         CROSS JOIN LATERAL (VALUES
           ('assignee', c.assigned_agent_id),
           ('first', c.first_response_by),
           ('closer', CASE WHEN c.closed_at IS NOT NULL
                      THEN COALESCE(c.closed_by_user_id, c.assigned_agent_id) END)
         ) AS r (role, agent)
         WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.started_at >= $2
           AND c.started_at < $3 AND ($4::bigint IS NULL OR c.site_id = $4)
           AND ($5::bigint IS NULL OR c.assigned_agent_id = $5)
           AND (r.role = 'assignee' OR r.agent IS NOT NULL)
         GROUP BY r.agent
         ORDER BY r.agent NULLS FIRST`,
        parameters,
      ),
    ]);
    return [
      ...rows.map(({ g_site, site, ...figures }) => ({
        ...figures,
        scope: g_site === 1 ? ('all' as const) : ('site' as const),
        key: g_site === 1 ? null : site,
      })),
      ...members.map(({ agent, ...figures }) => ({
        ...figures,
        scope: 'agent' as const,
        key: agent,
      })),
    ];
  }

  /** The latest rating comments of the range, newest first (a rating is stored with its time). */
  ratingComments(organizationId: string, filter: ReportFilter, limit: number) {
    return sql(
      this.dataSource,
      handTyped<{
        conversation_id: string;
        rating: number;
        comment: string;
        reviewed_at: Date;
        agent_id: string | null;
        site_id: string;
      }>`SELECT c.id AS conversation_id, c.rating, c.review_comment AS comment, c.reviewed_at,
              c.assigned_agent_id AS agent_id, c.site_id
         FROM conversations c
        WHERE c.organization_id = $1 AND c.started_at IS NOT NULL AND c.started_at >= $2
          AND c.started_at < $3 AND ($4::bigint IS NULL OR c.site_id = $4)
          AND ($5::bigint IS NULL OR c.assigned_agent_id = $5)
          AND c.rating IS NOT NULL AND c.reviewed_at IS NOT NULL
          AND btrim(coalesce(c.review_comment, '')) <> ''
        ORDER BY c.reviewed_at DESC, c.id DESC LIMIT $6`,
      [...this.parameters(organizationId, filter), limit],
    );
  }

  private parameters(organizationId: string, filter: ReportFilter): unknown[] {
    return [
      organizationId,
      filter.start,
      filter.end,
      filter.siteId ?? null,
      filter.agentId ?? null,
    ];
  }
}
