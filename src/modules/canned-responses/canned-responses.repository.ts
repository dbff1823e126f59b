import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { escapeLike, pageOf, query, sql } from '../../database/sql';

export interface CannedResponseRow {
  id: string;
  shortcut: string;
  body: string;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

@Injectable()
export class CannedResponsesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page by shortcut; `prefix` keeps those starting with it (canned_responses_shortcut_key). */
  page(
    organizationId: string,
    prefix: string | undefined,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: CannedResponseRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<CannedResponseRow>`SELECT id, shortcut, body, created_by_user_id, created_at, updated_at FROM canned_responses
          WHERE organization_id = $1 AND ($2::text IS NULL OR shortcut LIKE $2 || '%')
          ORDER BY shortcut LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM canned_responses
          WHERE organization_id = $1 AND ($2::text IS NULL OR shortcut LIKE $2 || '%')`,
      },
      [organizationId, prefix === undefined ? null : escapeLike(prefix)],
      page,
    );
  }

  async find(organizationId: string, id: string): Promise<CannedResponseRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<CannedResponseRow>`SELECT id, shortcut, body, created_by_user_id, created_at, updated_at FROM canned_responses WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  async insert(
    organizationId: string,
    input: { shortcut: string; body: string; userId: string },
  ): Promise<CannedResponseRow> {
    const rows = await sql(
      this.dataSource,
      query<CannedResponseRow>`INSERT INTO canned_responses (organization_id, shortcut, body, created_by_user_id)
       VALUES ($1, $2, $3, $4) RETURNING id, shortcut, body, created_by_user_id, created_at, updated_at`,
      [organizationId, input.shortcut, input.body, input.userId],
    );
    return rows[0];
  }

  async update(
    organizationId: string,
    id: string,
    changes: { shortcut?: string; body?: string },
  ): Promise<CannedResponseRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<CannedResponseRow>`UPDATE canned_responses SET shortcut = COALESCE($3, shortcut), body = COALESCE($4, body),
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, shortcut, body, created_by_user_id, created_at, updated_at`,
      [organizationId, id, changes.shortcut ?? null, changes.body ?? null],
    );
    return rows[0];
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`DELETE FROM canned_responses WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
