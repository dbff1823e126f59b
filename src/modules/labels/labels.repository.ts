import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { pageOf, query, sql } from '../../database/sql';

export interface LabelRow {
  id: string;
  name: string;
  color: string;
  created_at: Date;
  updated_at: Date;
}

@Injectable()
export class LabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of the organization's labels by name, with their total. */
  page(
    organizationId: string,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: LabelRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<LabelRow>`SELECT id, name, color, created_at, updated_at FROM labels
          WHERE organization_id = $1
          ORDER BY lower(name), id LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM labels
          WHERE organization_id = $1`,
      },
      [organizationId],
      page,
    );
  }

  async insert(organizationId: string, input: { name: string; color: string }): Promise<LabelRow> {
    const rows = await sql(
      this.dataSource,
      query<LabelRow>`INSERT INTO labels (organization_id, name, color) VALUES ($1, $2, $3) RETURNING id, name, color, created_at, updated_at`,
      [organizationId, input.name, input.color],
    );
    return rows[0];
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; color?: string },
  ): Promise<LabelRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<LabelRow>`UPDATE labels SET name = COALESCE($3, name), color = COALESCE($4, color), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, name, color, created_at, updated_at`,
      [organizationId, id, changes.name ?? null, changes.color ?? null],
    );
    return rows[0];
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ id: string }>`DELETE FROM labels WHERE organization_id = $1 AND id = $2 RETURNING id`,
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
      const conversation = await sql(
        manager,
        query<{ id: string }>`SELECT id FROM conversations WHERE organization_id = $1 AND id = $2
           AND started_at IS NOT NULL FOR UPDATE`,
        [organizationId, conversationId],
      );
      if (!conversation[0]) return undefined;
      const known = await sql(
        manager,
        query<{
          id: string;
        }>`SELECT id FROM labels WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
        [organizationId, labelIds],
      );
      const knownIds = new Set(known.map((row) => row.id));
      const unknown = labelIds.filter((id) => !knownIds.has(id));
      if (unknown.length > 0) return { unknown };
      await sql(
        manager,
        query`DELETE FROM conversation_labels
         WHERE organization_id = $3 AND conversation_id = $1 AND label_id <> ALL($2::bigint[])`,
        [conversationId, labelIds, organizationId],
      );
      await sql(
        manager,
        query`INSERT INTO conversation_labels (conversation_id, label_id, organization_id)
         SELECT $1, unnest($2::bigint[]), $3 ON CONFLICT DO NOTHING`,
        [conversationId, labelIds, organizationId],
      );
      return { unknown: [] };
    });
  }

  /**
   * Adds labels to a conversation inside the caller's transaction (a macro), keeping those it
   * has; answers the ids that are not the organization's labels (nothing is added then).
   */
  async addOnConversation(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    labelIds: string[],
  ): Promise<{ unknown: string[] }> {
    const known = await sql(
      manager,
      query<{
        id: string;
      }>`SELECT id FROM labels WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
      [organizationId, labelIds],
    );
    const knownIds = new Set(known.map((row) => row.id));
    const unknown = labelIds.filter((id) => !knownIds.has(id));
    if (unknown.length > 0) return { unknown };
    await sql(
      manager,
      query`INSERT INTO conversation_labels (conversation_id, label_id, organization_id)
       SELECT $1, unnest($2::bigint[]), $3 ON CONFLICT DO NOTHING`,
      [conversationId, labelIds, organizationId],
    );
    return { unknown: [] };
  }

  /** Which of these ids are not the organization's labels. */
  async unknownIds(organizationId: string, labelIds: string[]): Promise<string[]> {
    const known = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`SELECT id FROM labels WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
      [organizationId, labelIds],
    );
    const knownIds = new Set(known.map((row) => row.id));
    return labelIds.filter((id) => !knownIds.has(id));
  }

  onConversation(
    organizationId: string,
    conversationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LabelRow[]> {
    return sql(
      manager,
      query<LabelRow>`SELECT l.id, l.name, l.color, l.created_at, l.updated_at
       FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
       WHERE cl.conversation_id = $2 AND l.organization_id = $1 ORDER BY lower(l.name)`,
      [organizationId, conversationId],
    );
  }
}
