import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';

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
 * Conversations started in the range (conversations_started_idx), optionally of one site and
 * one assignee. The kept columns first_response_at, missed_at, closed_at and rating answer every
 * figure without reading a message.
 */
const RANGE = `c.organization_id = $1 AND c.started_at IS NOT NULL AND c.started_at >= $2
  AND c.started_at < $3 AND ($4::bigint IS NULL OR c.site_id = $4)
  AND ($5::bigint IS NULL OR c.assigned_agent_id = $5)`;

const seconds = (until: string) => `extract(epoch FROM c.${until} - c.started_at)`;

@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The time zone of the site, or of the organization's first site; undefined for another's site. */
  async timezone(organizationId: string, siteId?: string): Promise<string | undefined> {
    const rows = await sql<{ timezone: string }>(
      this.dataSource,
      `SELECT timezone FROM sites WHERE organization_id = $1 AND ($2::bigint IS NULL OR id = $2)
       ORDER BY id LIMIT 1`,
      [organizationId, siteId ?? null],
    );
    return rows[0]?.timezone;
  }

  perDay(organizationId: string, filter: ReportFilter): Promise<DayRow[]> {
    return sql<DayRow>(
      this.dataSource,
      `SELECT to_char(c.started_at AT TIME ZONE $6, 'YYYY-MM-DD') AS day, count(*) AS conversations,
         count(*) FILTER (WHERE c.missed_at IS NOT NULL) AS missed
       FROM conversations c WHERE ${RANGE} GROUP BY 1 ORDER BY 1`,
      [...this.parameters(organizationId, filter), filter.timezone],
    );
  }

  /** Every figure, for the whole range and per assignee and per site, in one pass. */
  async grouped(organizationId: string, filter: ReportFilter): Promise<TimesRow[]> {
    const rows = await sql<
      TimesRow & { g_agent: number; g_site: number; agent: string | null; site: string }
    >(
      this.dataSource,
      `SELECT GROUPING(c.assigned_agent_id) AS g_agent, GROUPING(c.site_id) AS g_site,
         c.assigned_agent_id AS agent, c.site_id AS site,
         count(*) AS conversations, count(*) FILTER (WHERE c.missed_at IS NOT NULL) AS missed,
         count(c.first_response_at) AS first_response_count,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds('first_response_at')}) AS first_response_median,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds('first_response_at')}) AS first_response_p90,
         count(c.closed_at) AS resolution_count,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds('closed_at')}) AS resolution_median,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds('closed_at')}) AS resolution_p90,
         count(c.rating) AS rating_count, avg(c.rating)::float8 AS rating_average,
         count(*) FILTER (WHERE c.rating = 1) AS rating_1, count(*) FILTER (WHERE c.rating = 2) AS rating_2,
         count(*) FILTER (WHERE c.rating = 3) AS rating_3, count(*) FILTER (WHERE c.rating = 4) AS rating_4,
         count(*) FILTER (WHERE c.rating = 5) AS rating_5
       FROM conversations c WHERE ${RANGE}
       GROUP BY GROUPING SETS ((), (c.assigned_agent_id), (c.site_id))
       ORDER BY g_agent DESC, g_site DESC, agent NULLS FIRST, site`,
      this.parameters(organizationId, filter),
    );
    return rows.map(({ g_agent, g_site, agent, site, ...figures }) => ({
      ...figures,
      scope: g_agent === 1 && g_site === 1 ? 'all' : g_agent === 0 ? 'agent' : 'site',
      key: g_agent === 0 ? agent : g_site === 0 ? site : null,
    }));
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
