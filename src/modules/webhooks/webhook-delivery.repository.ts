import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';
import { Batcher } from '../../common/batcher';
import type { AttemptOutcome } from './webhook-outcome';
import type { AttemptRow, ClaimedRow } from './webhook-rows';

/** A delivery to write for an outbox event; its body already names its id. */
export interface NewDelivery {
  id: string;
  endpointId: string;
  body: string;
}

/** A delivery waiting for its queue job. */
export interface PendingDelivery {
  id: string;
  endpoint_id: string;
  attempts: number;
}

/**
 * The delivery pipeline's access to webhook deliveries and endpoints, by delivery or endpoint id:
 * these rows come from the queue, not from a request. Only the dispatcher and the deliverer use
 * it (a test checks who imports it); the agent API uses the organization-scoped
 * WebhooksRepository.
 *
 * Claims and successful attempts, the two statements of every delivery, are batched: the calls
 * made while one batch is written go into the next (see Batcher).
 */
@Injectable()
export class WebhookDeliveryRepository {
  private readonly claims = new Batcher<
    { deliveryId: string; claimant: string; leaseMs: number },
    ClaimedRow | undefined
  >((items) => this.claimAll(items));
  private readonly successes = new Batcher<AttemptRow & { endpointId: string }, void>((items) =>
    this.recordSuccesses(items),
  );

  constructor(private readonly dataSource: DataSource) {}

  /** Active endpoints of the organization subscribed to `event`. */
  subscribed(organizationId: string, event: string): Promise<{ id: string }[]> {
    return sql(
      this.dataSource,
      query<{
        id: string;
      }>`SELECT id FROM webhook_endpoints WHERE organization_id = $1 AND is_active AND $2 = ANY (events)`,
      [organizationId, event],
    );
  }

  /**
   * Writes one delivery per endpoint of an outbox event, due now, in one statement; a second
   * write for the same endpoint and event is a no-op. Answers the event's deliveries no attempt
   * has touched yet: the new ones and those an earlier, interrupted run wrote but did not queue.
   */
  create(
    organizationId: string,
    event: { outboxId: string; type: string; occurredAt: string },
    deliveries: NewDelivery[],
  ): Promise<PendingDelivery[]> {
    return sql(
      this.dataSource,
      handTyped<PendingDelivery>`WITH input AS (
         SELECT * FROM unnest($3::uuid[], $4::bigint[], $5::text[]) AS t(id, endpoint_id, body)),
       inserted AS (
         INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, outbox_id, event, body,
           event_created_at, next_attempt_at)
         SELECT id, $1::bigint, endpoint_id, $2::bigint, $6::text, body, $7::timestamptz, now()
         FROM input
         ON CONFLICT (endpoint_id, outbox_id) DO NOTHING
         RETURNING id, endpoint_id, attempts)
       SELECT id, endpoint_id, attempts FROM inserted
       UNION ALL
       SELECT id, endpoint_id, attempts FROM webhook_deliveries
       WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE organization_id = $1::bigint)
         AND outbox_id = $2::bigint AND status = 'pending' AND attempts = 0`,
      [
        organizationId,
        event.outboxId,
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.body),
        event.type,
        event.occurredAt,
      ],
    );
  }

  /** Pending deliveries whose attempt is overdue (their job was lost): the sweeper re-queues them. */
  overdue(olderThanMs: number, limit: number): Promise<PendingDelivery[]> {
    return sql(
      this.dataSource,
      query<PendingDelivery>`SELECT id, endpoint_id, attempts FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at < now() - $1 * interval '1 millisecond'
       ORDER BY next_attempt_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /** The endpoint of a delivery (for a job queued without it). */
  async endpointOf(deliveryId: string): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{ endpoint_id: string }>`SELECT endpoint_id FROM webhook_deliveries WHERE id = $1`,
      [deliveryId],
    );
    return rows[0]?.endpoint_id;
  }

  /**
   * Takes the next attempt of a due, pending delivery for `leaseMs`, for `claimant` (the queue
   * job): the claim pushes `next_attempt_at` past the attempt's deadline, so a duplicate job
   * finds nothing to do and the sweeper only re-queues the delivery if this process dies
   * mid-attempt. The same claimant may take its claim again at once: the queue runs a job again
   * only when the process that ran it died (its lock ran out), so no attempt is left running.
   */
  claim(deliveryId: string, claimant: string, leaseMs: number): Promise<ClaimedRow | undefined> {
    return this.claims.add({ deliveryId, claimant, leaseMs });
  }

  private async claimAll(
    items: { deliveryId: string; claimant: string; leaseMs: number }[],
  ): Promise<(ClaimedRow | undefined)[]> {
    const rows = await sql(
      this.dataSource,
      query<ClaimedRow>`UPDATE webhook_deliveries d
       SET next_attempt_at = now() + c.lease_ms * interval '1 millisecond', claimed_by = c.claimant
       FROM unnest($1::uuid[], $2::text[], $3::int[]) AS c(id, claimant, lease_ms),
         webhook_endpoints e
       WHERE d.id = c.id AND e.id = d.endpoint_id AND d.status = 'pending'
         AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now() + interval '5 seconds'
           OR d.claimed_by = c.claimant)
       RETURNING d.id, d.endpoint_id, d.event, d.body, d.attempts, e.url, e.secret_sealed,
         e.is_active`,
      [
        items.map((item) => item.deliveryId),
        items.map((item) => item.claimant),
        items.map((item) => item.leaseMs),
      ],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A delivery asked for twice in one batch is claimed once.
    return items.map((item) => {
      const row = byId.get(item.deliveryId);
      byId.delete(item.deliveryId);
      return row;
    });
  }

  /**
   * A successful attempt: logged, the endpoint's failure streak (if any) ended, the delivery
   * settled. As for every attempt record, the commit does not wait for the disk: losing it in a
   * crash means one more attempt, not a lost event.
   */
  recordSuccess(attempt: AttemptRow, endpointId: string): Promise<void> {
    return this.successes.add({ ...attempt, endpointId });
  }

  private async recordSuccesses(items: (AttemptRow & { endpointId: string })[]): Promise<void[]> {
    await sql(
      this.dataSource,
      query`WITH quick AS (SELECT set_config('synchronous_commit', 'off', true)),
       input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[],
           $6::text[]) AS t(delivery_id, attempt, started_at, duration_ms, status_code, excerpt)),
       logged AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
           response_excerpt, error)
         SELECT delivery_id, attempt, started_at, duration_ms, status_code, excerpt, NULL
         FROM input CROSS JOIN quick
         ON CONFLICT (delivery_id, attempt) DO NOTHING),
       streak AS (
         UPDATE webhook_endpoints SET failing_since = NULL
         WHERE id = ANY ($7::bigint[]) AND failing_since IS NOT NULL)
       UPDATE webhook_deliveries d SET attempts = i.attempt, status = 'succeeded',
         last_status_code = i.status_code, next_attempt_at = NULL, completed_at = now()
       FROM input i WHERE d.id = i.delivery_id`,
      [
        items.map((item) => item.delivery_id),
        items.map((item) => item.attempt),
        items.map((item) => item.started_at),
        items.map((item) => item.duration_ms),
        items.map((item) => item.status_code),
        items.map((item) => item.response_excerpt),
        [...new Set(items.map((item) => item.endpointId))],
      ],
    );
    return items.map(() => undefined);
  }

  /**
   * A failed attempt, in one transaction: logged, the endpoint's failure streak started (or its
   * start read), the outcome `decide` gives for that streak applied (the endpoint disabled, the
   * delivery settled or its next attempt planned). Answers the outcome.
   */
  async recordFailure(
    attempt: AttemptRow,
    endpointId: string,
    decide: (failingSince: Date | null) => AttemptOutcome,
  ): Promise<AttemptOutcome> {
    return this.dataSource.transaction(async (manager) => {
      await sql(manager, query`SET LOCAL synchronous_commit = off`);
      await sql(
        manager,
        query`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
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
      // Written only when the streak really starts, so failures of one endpoint do not queue up
      // on its row; and only by an attempt whose delivery is still pending: a late failure of an
      // attempt handed back at a stop, which another instance has delivered since, says nothing
      // about the endpoint now.
      const started = await sql(
        manager,
        query<{ failing_since: Date | null }>`UPDATE webhook_endpoints SET failing_since = now()
         WHERE id = $1 AND failing_since IS NULL
           AND EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $2 AND status = 'pending')
         RETURNING failing_since`,
        [endpointId, attempt.delivery_id],
      );
      const streak =
        started[0] ??
        (
          await sql(
            manager,
            query<{
              failing_since: Date | null;
            }>`SELECT failing_since FROM webhook_endpoints WHERE id = $1`,
            [endpointId],
          )
        )[0];
      const outcome = decide(streak?.failing_since ?? null);
      if (outcome.status === 'failed' && outcome.disable) {
        await sql(
          manager,
          query`UPDATE webhook_endpoints SET is_active = false, disabled_at = now(),
             disabled_reason = $2, updated_at = now() WHERE id = $1`,
          [endpointId, outcome.disable],
        );
      }
      await this.settle(manager, attempt.delivery_id, {
        attempts: attempt.attempt,
        status: outcome.status,
        statusCode: attempt.status_code,
        retryInMs: outcome.status === 'pending' ? outcome.retryInMs : null,
      });
      return outcome;
    });
  }

  /** A delivery whose endpoint was disabled meanwhile: failed without an attempt. */
  async failUnsent(deliveryId: string, attempts: number): Promise<void> {
    await this.settle(this.dataSource, deliveryId, {
      attempts,
      status: 'failed',
      statusCode: null,
      retryInMs: null,
    });
  }

  /**
   * Settles a delivery still pending. One already settled stays as it is: an attempt that failed
   * late (its process was stopping and had handed the job back, another instance delivered it
   * meanwhile) must not turn a success back into a retry, which would send the event again.
   */
  private async settle(
    executor: Parameters<typeof sql>[0],
    deliveryId: string,
    outcome: {
      attempts: number;
      status: AttemptOutcome['status'];
      statusCode: number | null;
      retryInMs: number | null;
    },
  ): Promise<void> {
    await sql(
      executor,
      query`UPDATE webhook_deliveries SET attempts = $2, status = $3, last_status_code = $4,
         next_attempt_at = now() + $5 * interval '1 millisecond',
         completed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId, outcome.attempts, outcome.status, outcome.statusCode, outcome.retryInMs],
    );
  }
}
