import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, query, sql, type SqlExecutor } from '../../database/sql';
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhook-rows';

export type { AttemptRow, DeliveryRow, EndpointRow } from './webhook-rows';

/**
 * An organization's webhook endpoints and the log of their deliveries, as the agent API manages
 * them: every statement names the organization. The delivery pipeline (claiming, sending,
 * recording attempts) has its own, worker-only repository: WebhookDeliveryRepository.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside the caller's transaction (the count and its lock hold until it ends). */
  async insertEndpoint(
    manager: SqlExecutor,
    organizationId: string,
    endpoint: {
      url: string;
      description: string | null;
      events: string[];
      isActive: boolean;
      secretSealed: string;
      secretPrefix: string;
      createdBy: string;
    },
    max: number,
  ): Promise<EndpointRow | undefined> {
    // One creation per organization at a time, so two at once cannot both pass the count.
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7008, hashint8($1::bigint))`,
      [organizationId],
    );
    const [{ count }] = await sql(
      manager,
      query<{
        count: number;
      }>`SELECT count(*)::int AS count FROM webhook_endpoints WHERE organization_id = $1`,
      [organizationId],
    );
    if (count >= max) return undefined;
    const rows = await sql(
      manager,
      query<EndpointRow>`INSERT INTO webhook_endpoints (organization_id, url, description, events, is_active,
       secret_sealed, secret_prefix, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, organization_id, url, description, events, is_active, secret_prefix, disabled_at, disabled_reason, created_at, updated_at`,
      [
        organizationId,
        endpoint.url,
        endpoint.description,
        endpoint.events,
        endpoint.isActive,
        endpoint.secretSealed,
        endpoint.secretPrefix,
        endpoint.createdBy,
      ],
    );
    return rows[0];
  }

  pageEndpoints(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf(
      this.dataSource,
      {
        rows: query<EndpointRow>`SELECT id, organization_id, url, description, events, is_active, secret_prefix, disabled_at, disabled_reason, created_at, updated_at FROM webhook_endpoints
          WHERE organization_id = $1
          ORDER BY id DESC LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM webhook_endpoints
          WHERE organization_id = $1`,
      },
      [organizationId],
      page,
    );
  }

  async findEndpoint(
    organizationId: string,
    endpointId: string,
    executor: SqlExecutor = this.dataSource,
  ): Promise<EndpointRow | undefined> {
    const rows = await sql(
      executor,
      query<EndpointRow>`SELECT id, organization_id, url, description, events, is_active, secret_prefix, disabled_at, disabled_reason, created_at, updated_at FROM webhook_endpoints WHERE organization_id = $1 AND id = $2`,
      [organizationId, endpointId],
    );
    return rows[0];
  }

  /** Changes what was given; re-activating clears a disabled endpoint's reason and failure streak. */
  async updateEndpoint(
    executor: SqlExecutor,
    organizationId: string,
    endpointId: string,
    changes: { url?: string; description?: string | null; events?: string[]; isActive?: boolean },
  ): Promise<EndpointRow | undefined> {
    const rows = await sql(
      executor,
      query<EndpointRow>`UPDATE webhook_endpoints SET
         url = COALESCE($3, url),
         description = CASE WHEN $4::boolean THEN $5 ELSE description END,
         events = COALESCE($6, events),
         is_active = COALESCE($7, is_active),
         disabled_at = CASE WHEN $7 THEN NULL ELSE disabled_at END,
         disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
         failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END,
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, organization_id, url, description, events, is_active, secret_prefix, disabled_at, disabled_reason, created_at, updated_at`,
      [
        organizationId,
        endpointId,
        changes.url ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.events ?? null,
        changes.isActive ?? null,
      ],
    );
    return rows[0];
  }

  async deleteEndpoint(
    executor: SqlExecutor,
    organizationId: string,
    endpointId: string,
  ): Promise<EndpointRow | undefined> {
    const rows = await sql(
      executor,
      query<EndpointRow>`DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id, organization_id, url, description, events, is_active, secret_prefix, disabled_at, disabled_reason, created_at, updated_at`,
      [organizationId, endpointId],
    );
    return rows[0];
  }

  /** A delivery of no outbox event (a test ping), due now. */
  async insertDelivery(
    organizationId: string,
    delivery: {
      id: string;
      endpointId: string;
      event: string;
      body: string;
      eventCreatedAt: string;
    },
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event, body,
         event_created_at, next_attempt_at)
       SELECT $1::uuid, organization_id, id, $3::text, $4::text, $5::timestamptz, now()
       FROM webhook_endpoints
       WHERE organization_id = $2 AND id = $6`,
      [
        delivery.id,
        organizationId,
        delivery.event,
        delivery.body,
        delivery.eventCreatedAt,
        delivery.endpointId,
      ],
    );
  }

  pageDeliveries(
    organizationId: string,
    endpointId: string,
    page: { perPage: number; offset: number },
  ) {
    return pageOf(
      this.dataSource,
      {
        rows: query<DeliveryRow>`SELECT id, endpoint_id, event, status, attempts, next_attempt_at, last_status_code, created_at, completed_at FROM webhook_deliveries
          WHERE organization_id = $1 AND endpoint_id = $2
          ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM webhook_deliveries
          WHERE organization_id = $1 AND endpoint_id = $2`,
      },
      [organizationId, endpointId],
      page,
    );
  }

  attemptsOf(organizationId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    return sql(
      this.dataSource,
      query<AttemptRow>`SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code,
         a.response_excerpt, a.error
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE d.organization_id = $1 AND a.delivery_id = ANY ($2::uuid[])
       ORDER BY a.delivery_id, a.attempt`,
      [organizationId, deliveryIds],
    );
  }

  async findDelivery(
    organizationId: string,
    endpointId: string,
    deliveryId: string,
  ): Promise<DeliveryRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<DeliveryRow>`SELECT id, endpoint_id, event, status, attempts, next_attempt_at, last_status_code, created_at, completed_at FROM webhook_deliveries
       WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3`,
      [organizationId, endpointId, deliveryId],
    );
    return rows[0];
  }

  /** A manual redelivery: pending again, due now; its attempts keep counting. */
  async reopen(organizationId: string, deliveryId: string): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{
        attempts: number;
      }>`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), completed_at = NULL
       WHERE organization_id = $1 AND id = $2 RETURNING attempts`,
      [organizationId, deliveryId],
    );
    return rows[0].attempts;
  }
}
