import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, sql } from '../../database/sql';

export interface LabelRow {
  id: string;
  name: string;
  color: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, color, created_at, updated_at';

@Injectable()
export class LabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of the organization's labels by name, with their total. */
  page(
    organizationId: string,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: LabelRow[]; total: number }> {
    return pageOf<LabelRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'labels',
        where: 'organization_id = $1',
        parameters: [organizationId],
        orderBy: 'lower(name), id',
      },
      page,
    );
  }

  async insert(organizationId: string, input: { name: string; color: string }): Promise<LabelRow> {
    const rows = await sql<LabelRow>(
      this.dataSource,
      `INSERT INTO labels (organization_id, name, color) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [organizationId, input.name, input.color],
    );
    return rows[0];
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; color?: string },
  ): Promise<LabelRow | undefined> {
    const rows = await sql<LabelRow>(
      this.dataSource,
      `UPDATE labels SET name = COALESCE($3, name), color = COALESCE($4, color), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [organizationId, id, changes.name ?? null, changes.color ?? null],
    );
    return rows[0];
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql<{ id: string }>(
      this.dataSource,
      `DELETE FROM labels WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /**
   * Replaces a conversation's labels in one statement chain inside a transaction; the
   * conversation row is locked so two concurrent replacements end as one of them. Answers
   * undefined when the conversation is not the organization's (or not started), and the ids
   * that are not the organization's labels otherwise (nothing is changed then).
   */
  async replaceOnConversation(
    organizationId: string,
    conversationId: string,
    labelIds: string[],
  ): Promise<{ unknown: string[] } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const conversation = await sql<{ id: string }>(
        manager,
        `SELECT id FROM conversations WHERE organization_id = $1 AND id = $2
           AND started_at IS NOT NULL FOR UPDATE`,
        [organizationId, conversationId],
      );
      if (!conversation[0]) return undefined;
      const known = await sql<{ id: string }>(
        manager,
        `SELECT id FROM labels WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
        [organizationId, labelIds],
      );
      const knownIds = new Set(known.map((row) => row.id));
      const unknown = labelIds.filter((id) => !knownIds.has(id));
      if (unknown.length > 0) return { unknown };
      await sql(
        manager,
        `DELETE FROM conversation_labels
         WHERE organization_id = $3 AND conversation_id = $1 AND label_id <> ALL($2::bigint[])`,
        [conversationId, labelIds, organizationId],
      );
      await sql(
        manager,
        `INSERT INTO conversation_labels (conversation_id, label_id, organization_id)
         SELECT $1, unnest($2::bigint[]), $3 ON CONFLICT DO NOTHING`,
        [conversationId, labelIds, organizationId],
      );
      return { unknown: [] };
    });
  }

  onConversation(organizationId: string, conversationId: string): Promise<LabelRow[]> {
    return sql<LabelRow>(
      this.dataSource,
      `SELECT l.id, l.name, l.color, l.created_at, l.updated_at
       FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
       WHERE cl.conversation_id = $2 AND l.organization_id = $1 ORDER BY lower(l.name)`,
      [organizationId, conversationId],
    );
  }
}
