import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../database/sql';

/** An outbox row as the relay moves it into the queue. */
export interface PendingRow {
  id: string;
  organization_id: string | null;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/**
 * The outbox relay's and the domain-event processor's access to `outbox_events`: every
 * organization's rows, by row id, so only those workers use it (a test checks who imports it).
 * Features write outbox rows through OutboxService.publish, inside their own transactions.
 */
@Injectable()
export class OutboxWorkerRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` rows not yet enqueued, locked (SKIP LOCKED) for the relay's transaction. */
  lockPending(manager: EntityManager, limit: number): Promise<PendingRow[]> {
    return sql<PendingRow>(
      manager,
      `SELECT id, organization_id, event_type, payload, created_at FROM outbox_events
        WHERE enqueued_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async markEnqueued(manager: EntityManager, ids: string[]): Promise<void> {
    await sql(
      manager,
      `UPDATE outbox_events SET enqueued_at = now() WHERE id = ANY($1::bigint[])`,
      [ids],
    );
  }

  /** Forgets rows processed more than a week ago. */
  async purgeProcessed(): Promise<void> {
    await sql(
      this.dataSource,
      `DELETE FROM outbox_events WHERE processed_at < now() - interval '7 days'`,
    );
  }

  async isProcessed(outboxId: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      `SELECT 1 FROM outbox_events WHERE id = $1 AND processed_at IS NOT NULL`,
      [outboxId],
    );
    return rows.length > 0;
  }

  async markProcessed(outboxId: string): Promise<void> {
    await sql(
      this.dataSource,
      `UPDATE outbox_events SET processed_at = now() WHERE id = $1 AND processed_at IS NULL`,
      [outboxId],
    );
  }
}
