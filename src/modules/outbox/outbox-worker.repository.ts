import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '../../database/sql';

/** An event's payload (`outbox_events.payload`, jsonb), as `publish` wrote it. */
export interface OutboxPayload {
  [key: string]: unknown;
}

/** An outbox row as the dispatcher claims it. */
export interface ClaimedRow {
  id: string;
  organization_id: string | null;
  event_type: string;
  payload: OutboxPayload;
  created_at: Date;
  /** This claim's attempt, 1 for the first. */
  attempts: number;
}

/**
 * The outbox dispatcher's access to `outbox_events`: every organization's rows, by row id, so only
 * the dispatcher uses it (a test checks who imports it). Features write outbox rows through
 * OutboxService.publish, inside their own transactions.
 */
@Injectable()
export class OutboxWorkerRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` rows due for handling, oldest first, for `leaseMs`: rows not processed,
   * not given up, not claimed by a live lease (a killed instance's come back when theirs runs
   * out) and not waiting for a retry. Several instances claim disjoint rows (SKIP LOCKED).
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    return sql(
      this.dataSource,
      query<ClaimedRow>`UPDATE outbox_events o
          SET claimed_until = now() + $2 * interval '1 millisecond', attempts = o.attempts + 1
        WHERE o.id IN (
          SELECT id FROM outbox_events
           WHERE processed_at IS NULL AND failed_at IS NULL
             AND (claimed_until IS NULL OR claimed_until < now())
             AND (next_attempt_at IS NULL OR next_attempt_at <= now())
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING o.id, o.organization_id, o.event_type, o.payload, o.created_at, o.attempts`,
      [limit, leaseMs],
      'outbox-claim',
    );
  }

  /** Keeps the claims of rows still being handled. */
  async renew(ids: string[], leaseMs: number): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE outbox_events SET claimed_until = now() + $2 * interval '1 millisecond'
        WHERE id = ANY($1::bigint[]) AND processed_at IS NULL`,
      [ids, leaseMs],
    );
  }

  async markProcessed(ids: string[]): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE outbox_events SET processed_at = now(), claimed_until = NULL
        WHERE id = ANY($1::bigint[])`,
      [ids],
      'outbox-processed',
    );
  }

  /** A failed attempt: tried again after `delayMs`, or never again (`delayMs` undefined). */
  async recordFailure(id: string, error: string, delayMs: number | undefined): Promise<void> {
    await sql(
      this.dataSource,
      delayMs === undefined
        ? query`UPDATE outbox_events SET claimed_until = NULL, failed_at = now(), last_error = $2
            WHERE id = $1`
        : query`UPDATE outbox_events SET claimed_until = NULL, last_error = $2,
                  next_attempt_at = now() + $3 * interval '1 millisecond'
            WHERE id = $1`,
      delayMs === undefined ? [id, error] : [id, error, delayMs],
    );
  }

  /** Forgets rows processed, or given up on, more than a week ago. */
  async purgeOld(): Promise<void> {
    await sql(
      this.dataSource,
      query`DELETE FROM outbox_events
        WHERE processed_at < now() - interval '7 days' OR failed_at < now() - interval '7 days'`,
    );
  }
}
