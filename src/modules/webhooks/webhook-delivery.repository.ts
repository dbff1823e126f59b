import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../database/sql';
import type { AttemptRow, DeliveryRow, SendableRow } from './webhooks.repository';

/**
 * The delivery worker's access to webhook deliveries and endpoints, by delivery or endpoint id
 * alone: these rows come from the queue, not from a request, so no organization is at hand. Only
 * the deliverer and the dispatcher use it (a test checks who imports it); request paths use the
 * organization-scoped WebhooksRepository.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Deliveries of an outbox event that no attempt has touched yet. */
  unsent(outboxId: string): Promise<{ id: string }[]> {
    return sql<{ id: string }>(
      this.dataSource,
      `SELECT id FROM webhook_deliveries WHERE outbox_id = $1 AND status = 'pending' AND attempts = 0`,
      [outboxId],
    );
  }

  /** Pending deliveries whose attempt is overdue (their job was lost): the sweeper re-queues them. */
  overdue(olderThanMs: number, limit: number): Promise<{ id: string; attempts: number }[]> {
    return sql<{ id: string; attempts: number }>(
      this.dataSource,
      `SELECT id, attempts FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at < now() - $1 * interval '1 millisecond'
       ORDER BY next_attempt_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  async sendable(deliveryId: string): Promise<SendableRow | undefined> {
    const rows = await sql<SendableRow>(
      this.dataSource,
      `SELECT d.id, d.organization_id, d.endpoint_id, d.event, d.body, d.status, d.attempts,
         e.url, e.secret_sealed, e.is_active, e.failing_since
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    return rows[0];
  }

  async recordAttempt(manager: EntityManager, attempt: AttemptRow): Promise<void> {
    await sql(
      manager,
      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
         response_excerpt, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        attempt.delivery_id,
        attempt.attempt,
        attempt.started_at,
        attempt.duration_ms,
        attempt.status_code,
        attempt.response_excerpt,
        attempt.error,
      ],
    );
  }

  /**
   * A successful attempt, in one statement instead of a transaction of five: the attempt logged,
   * the endpoint's failure streak (if any) ended, the delivery settled. As for every attempt
   * record, the commit does not wait for the disk: losing it in a crash means one more attempt,
   * not a lost event.
   */
  async recordSuccess(attempt: AttemptRow, endpointId: string): Promise<void> {
    await sql(
      this.dataSource,
      `WITH quick AS (SELECT set_config('synchronous_commit', 'off', true)),
       logged AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
           response_excerpt, error)
         SELECT $1::uuid, $2::int, $3::timestamptz, $4::int, $5::int, $6::text, NULL FROM quick
         ON CONFLICT (delivery_id, attempt) DO NOTHING),
       streak AS (
         UPDATE webhook_endpoints SET failing_since = NULL
         WHERE id = $7 AND failing_since IS NOT NULL)
       UPDATE webhook_deliveries SET attempts = $2, status = 'succeeded', last_status_code = $5,
         next_attempt_at = NULL, completed_at = now()
       WHERE id = $1`,
      [
        attempt.delivery_id,
        attempt.attempt,
        attempt.started_at,
        attempt.duration_ms,
        attempt.status_code,
        attempt.response_excerpt,
        endpointId,
      ],
    );
  }

  async settleDelivery(
    manager: EntityManager,
    deliveryId: string,
    outcome: {
      attempts: number;
      status: DeliveryRow['status'];
      statusCode: number | null;
      nextAttemptAt: Date | null;
    },
  ): Promise<void> {
    await sql(
      manager,
      `UPDATE webhook_deliveries SET attempts = $2, status = $3, last_status_code = $4,
         next_attempt_at = $5, completed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
       WHERE id = $1`,
      [deliveryId, outcome.attempts, outcome.status, outcome.statusCode, outcome.nextAttemptAt],
    );
  }

  /**
   * After an attempt: a success ends the endpoint's failure streak, a failure starts one. Each
   * statement only writes when the streak really changes, so concurrent successful deliveries of
   * one endpoint do not queue up on its row.
   */
  async endpointOutcome(
    manager: EntityManager,
    endpointId: string,
    succeeded: boolean,
  ): Promise<{ failing_since: Date | null }> {
    if (succeeded) {
      await sql(
        manager,
        `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`,
        [endpointId],
      );
      return { failing_since: null };
    }
    const started = await sql<{ failing_since: Date }>(
      manager,
      `UPDATE webhook_endpoints SET failing_since = now()
       WHERE id = $1 AND failing_since IS NULL RETURNING failing_since`,
      [endpointId],
    );
    if (started[0]) return started[0];
    const rows = await sql<{ failing_since: Date | null }>(
      manager,
      `SELECT failing_since FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    return rows[0] ?? { failing_since: null };
  }

  async disableEndpoint(
    manager: EntityManager,
    endpointId: string,
    reason: 'gone' | 'failing',
  ): Promise<void> {
    await sql(
      manager,
      `UPDATE webhook_endpoints SET is_active = false, disabled_at = now(), disabled_reason = $2,
         updated_at = now() WHERE id = $1`,
      [endpointId, reason],
    );
  }

  /**
   * Takes attempt `attempts + 1` of a due, pending delivery for `leaseMs`: the claim pushes
   * `next_attempt_at` past the attempt's deadline, so a duplicate job finds nothing to do and the
   * sweeper only re-queues the delivery if this process dies mid-attempt.
   */
  async claim(deliveryId: string, attempts: number, leaseMs: number): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      `UPDATE webhook_deliveries SET next_attempt_at = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND status = 'pending' AND attempts = $2
         AND (next_attempt_at IS NULL OR next_attempt_at <= now() + interval '5 seconds')
       RETURNING id`,
      [deliveryId, attempts, leaseMs],
    );
    return rows.length > 0;
  }

  /** Hands a claim back (the attempt will run later): the next claim of it succeeds at once. */
  async unclaim(deliveryId: string, attempts: number): Promise<void> {
    await sql(
      this.dataSource,
      `UPDATE webhook_deliveries SET next_attempt_at = now()
       WHERE id = $1 AND status = 'pending' AND attempts = $2`,
      [deliveryId, attempts],
    );
  }
}
