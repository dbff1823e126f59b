import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';

export interface AutoAssigned {
  conversationId: string;
  siteId: string;
  visitorId: string;
  agentId: string;
}

/**
 * Automatic assignment's reads and writes. Every pass holds the organization's row lock, so
 * passes of one organization run one after another and each sees the previous one's counts: no
 * agent goes over capacity however many chats start at once.
 */
@Injectable()
export class AssignmentRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Assigns the given waiting, unassigned chats (or, without ids, the organization's oldest such
   * chats) round robin to online agents below capacity, while any is free. Answers what it did.
   */
  assignWaiting(
    organizationId: string,
    conversationIds: string[] | undefined,
    onAssigned: (manager: EntityManager, assigned: AutoAssigned) => Promise<void>,
  ): Promise<AutoAssigned[]> {
    return this.dataSource.transaction(async (manager) => {
      // FOR NO KEY UPDATE: passes exclude each other, while the key-share lock every insert
      // referencing the organization takes (messages, conversations, ...) never waits for one.
      const [settings] = await sql(
        manager,
        query<{
          enabled: boolean;
          capacity: number;
        }>`SELECT auto_assignment_enabled AS enabled, auto_assignment_capacity AS capacity
         FROM organizations WHERE id = $1 FOR NO KEY UPDATE`,
        [organizationId],
      );
      if (!settings?.enabled) return [];
      const chats = await sql(
        manager,
        query<{
          id: string;
          site_id: string;
          visitor_id: string;
        }>`SELECT id, site_id, visitor_id FROM conversations
         WHERE organization_id = $1 AND status = 'waiting' AND assigned_agent_id IS NULL
           AND started_at IS NOT NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
         ORDER BY started_at, id LIMIT 100 FOR UPDATE`,
        [organizationId, conversationIds ?? null],
      );
      const assigned: AutoAssigned[] = [];
      for (const chat of chats) {
        const agentId = await this.nextAgent(manager, organizationId, settings.capacity);
        if (!agentId) break;
        await sql(
          manager,
          query`UPDATE conversations SET assigned_agent_id = $2, updated_at = now()
           WHERE id = $1 AND organization_id = $3`,
          [chat.id, agentId, organizationId],
        );
        await sql(
          manager,
          query`UPDATE users SET last_auto_assigned_at = clock_timestamp()
           WHERE id = $1 AND organization_id = $2`,
          [agentId, organizationId],
        );
        const done = {
          conversationId: chat.id,
          siteId: chat.site_id,
          visitorId: chat.visitor_id,
          agentId,
        };
        await onAssigned(manager, done);
        assigned.push(done);
      }
      return assigned;
    });
  }

  /** The online agent auto-assigned longest ago whose open chats are below the capacity. */
  private async nextAgent(
    manager: EntityManager,
    organizationId: string,
    capacity: number,
  ): Promise<string | undefined> {
    const rows = await sql(
      manager,
      query<{ id: string }>`SELECT u.id FROM users u
       WHERE u.organization_id = $1 AND u.removed_at IS NULL AND u.status = 'online'
         AND (SELECT count(*) FROM conversations c
              WHERE c.assigned_agent_id = u.id AND c.status IN ('waiting', 'active')) < $2
       ORDER BY u.last_auto_assigned_at NULLS FIRST, u.id LIMIT 1`,
      [organizationId, capacity],
    );
    return rows[0]?.id;
  }
}
