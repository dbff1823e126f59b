import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, query, sql } from '../../database/sql';

/** One stored step of a macro (only the fields its type uses are kept). */
export type MacroAction =
  | { type: 'reply'; canned_response_id: number }
  | { type: 'add_labels'; label_ids: number[] }
  | { type: 'assign'; agent_id: number | null }
  | { type: 'unassign' }
  | { type: 'set_status'; status: 'open' }
  | { type: 'set_status'; status: 'snoozed'; snooze_minutes: number }
  | { type: 'close' };

export interface MacroRow {
  id: string;
  name: string;
  actions: MacroAction[];
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

@Injectable()
export class MacrosRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page by name (macros_name_key). */
  page(
    organizationId: string,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: MacroRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<MacroRow>`SELECT id, name, actions, created_by_user_id, created_at, updated_at FROM macros
          WHERE organization_id = $1
          ORDER BY lower(name), id LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM macros
          WHERE organization_id = $1`,
      },
      [organizationId],
      page,
    );
  }

  async find(organizationId: string, id: string): Promise<MacroRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<MacroRow>`SELECT id, name, actions, created_by_user_id, created_at, updated_at FROM macros WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  async insert(
    organizationId: string,
    input: { name: string; actions: MacroAction[]; userId: string },
  ): Promise<MacroRow> {
    const rows = await sql(
      this.dataSource,
      query<MacroRow>`INSERT INTO macros (organization_id, name, actions, created_by_user_id)
       VALUES ($1, $2, $3::jsonb, $4) RETURNING id, name, actions, created_by_user_id, created_at, updated_at`,
      [organizationId, input.name, JSON.stringify(input.actions), input.userId],
    );
    return rows[0];
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; actions?: MacroAction[] },
  ): Promise<MacroRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<MacroRow>`UPDATE macros SET name = COALESCE($3, name), actions = COALESCE($4::jsonb, actions),
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, name, actions, created_by_user_id, created_at, updated_at`,
      [
        organizationId,
        id,
        changes.name ?? null,
        changes.actions === undefined ? null : JSON.stringify(changes.actions),
      ],
    );
    return rows[0];
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ id: string }>`DELETE FROM macros WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
