import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, sql } from '../../database/sql';

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

export interface VisitorFilter {
  search?: string;
  siteId?: number;
}

const COLUMNS =
  'id, organization_id, site_id, visitor_uid, name, email, country, language, last_seen_at, created_at';

/** The text `search` matches; the same expression as the trigram index visitors_search_trgm_idx. */
const SEARCH_TEXT = `(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || visitor_uid::text)`;

/** `%`, `_` and the escape character itself match literally inside an ILIKE pattern. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

@Injectable()
export class VisitorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of visitors, newest first, with the total for the filter. */
  async page(
    organizationId: string,
    filter: VisitorFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: VisitorRow[]; total: number }> {
    const conditions = ['organization_id = $1'];
    const parameters: unknown[] = [organizationId];
    if (filter.siteId !== undefined) {
      parameters.push(filter.siteId);
      conditions.push(`site_id = $${parameters.length}`);
    }
    if (filter.search) {
      parameters.push(escapeLike(filter.search));
      conditions.push(`${SEARCH_TEXT} ILIKE '%' || $${parameters.length} || '%'`);
    }
    return pageOf<VisitorRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'visitors',
        where: conditions.join(' AND '),
        parameters,
        orderBy: 'id DESC',
      },
      page,
    );
  }

  async find(organizationId: string, visitorId: string): Promise<VisitorRow | undefined> {
    const rows = await sql<VisitorRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /** The visitor with its started conversations and its tickets counted. */
  async findWithCounts(
    organizationId: string,
    visitorId: string,
  ): Promise<VisitorDetailRow | undefined> {
    const rows = await sql<VisitorDetailRow>(
      this.dataSource,
      `SELECT ${COLUMNS},
         (SELECT count(*) FROM conversations c
           WHERE c.visitor_id = visitors.id AND c.organization_id = visitors.organization_id
             AND c.started_at IS NOT NULL) AS conversations_count,
         (SELECT count(*) FROM tickets t
           WHERE t.visitor_id = visitors.id AND t.organization_id = visitors.organization_id) AS tickets_count
       FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }
}
