import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppError } from '../../common/errors/app-error';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AuditLogService, changedFields } from '../audit/audit-log.service';
import { deliveryBody } from './webhook-dispatcher';
import { WebhookDeliverer } from './webhook-deliverer';
import { PING_EVENT } from './webhook-events';
import { type DeliveryRow, type EndpointRow, WebhooksRepository } from './webhooks.repository';

/** What the audit log keeps of an endpoint (never its secret). */
const auditedFields = (row: EndpointRow) => ({
  url: row.url,
  description: row.description,
  events: row.events,
  is_active: row.is_active,
});

/** Endpoint management, the deliveries log, test pings and manual redelivery (agent API). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliverer: WebhookDeliverer,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
  ) {}

  /** A new endpoint and its signing secret (`whsec_` + 24 random bytes), returned only here. */
  async create(
    organizationId: string,
    userId: string,
    input: { url: string; events: string[]; description?: string; is_active?: boolean },
  ): Promise<{ endpoint: EndpointRow; secret: string }> {
    this.checkUrl(input.url);
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const endpoint = await this.dataSource.transaction(async (manager) => {
      const row = await this.webhooks.insertEndpoint(
        manager,
        organizationId,
        {
          url: input.url,
          description: input.description ?? null,
          events: input.events,
          isActive: input.is_active ?? true,
          secretSealed: this.secrets.seal(secret),
          secretPrefix: secret.slice(0, 10),
          createdBy: userId,
        },
        this.config.env.WEBHOOK_ENDPOINTS_MAX,
      );
      if (row) {
        await this.audit.record(manager, organizationId, {
          action: 'webhook.created',
          target: { type: 'webhook', id: row.id, label: row.url },
          changes: { after: { ...auditedFields(row), secret: secret } },
        });
      }
      return row;
    });
    if (!endpoint) {
      throw AppError.conflict(
        `This organization already has the maximum of ${this.config.env.WEBHOOK_ENDPOINTS_MAX} webhook endpoints; delete one first.`,
        'webhook_limit',
      );
    }
    return { endpoint, secret };
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.webhooks.pageEndpoints(organizationId, page);
  }

  async get(organizationId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await this.webhooks.findEndpoint(organizationId, endpointId);
    if (!endpoint) throw AppError.notFound();
    return endpoint;
  }

  async update(
    organizationId: string,
    endpointId: string,
    input: { url?: string; events?: string[]; description?: string | null; is_active?: boolean },
  ): Promise<EndpointRow> {
    if (input.url !== undefined) this.checkUrl(input.url);
    return this.dataSource.transaction(async (manager) => {
      const before = await this.webhooks.findEndpoint(organizationId, endpointId, manager);
      const endpoint = await this.webhooks.updateEndpoint(manager, organizationId, endpointId, {
        url: input.url,
        events: input.events,
        description: input.description,
        isActive: input.is_active,
      });
      if (!before || !endpoint) throw AppError.notFound();
      const changes = changedFields(auditedFields(before), auditedFields(endpoint));
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, organizationId, {
          action: 'webhook.updated',
          target: { type: 'webhook', id: endpoint.id, label: endpoint.url },
          changes,
        });
      }
      return endpoint;
    });
  }

  async remove(organizationId: string, endpointId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const endpoint = await this.webhooks.deleteEndpoint(manager, organizationId, endpointId);
      if (!endpoint) throw AppError.notFound();
      await this.audit.record(manager, organizationId, {
        action: 'webhook.deleted',
        target: { type: 'webhook', id: endpoint.id, label: endpoint.url },
        changes: { before: auditedFields(endpoint) },
      });
    });
  }

  /** Sends a `webhook.ping` now, once (no retries), and answers the logged delivery. */
  async ping(organizationId: string, endpointId: string) {
    const endpoint = await this.get(organizationId, endpointId);
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    await this.webhooks.insertDelivery(organizationId, {
      id,
      endpointId: endpoint.id,
      event: PING_EVENT,
      body: deliveryBody(id, PING_EVENT, createdAt, {
        organization_id: Number(organizationId),
        endpoint_id: Number(endpoint.id),
        message: 'This is a test delivery.',
      }),
      eventCreatedAt: createdAt,
    });
    await this.deliverer.attempt(id, { retry: false, endpointId: endpoint.id });
    return this.delivery(organizationId, endpoint.id, id);
  }

  async deliveries(
    organizationId: string,
    endpointId: string,
    page: { perPage: number; offset: number },
  ) {
    await this.get(organizationId, endpointId);
    const { rows, total } = await this.webhooks.pageDeliveries(organizationId, endpointId, page);
    return { rows: await this.withAttempts(organizationId, rows), total };
  }

  async delivery(organizationId: string, endpointId: string, deliveryId: string) {
    const row = await this.webhooks.findDelivery(organizationId, endpointId, deliveryId);
    if (!row) throw AppError.notFound();
    return (await this.withAttempts(organizationId, [row]))[0];
  }

  /**
   * Sends a delivery again, with the same id and body; its attempts keep counting and the retry
   * schedule applies again from there. A pending delivery is simply attempted now.
   */
  async redeliver(organizationId: string, endpointId: string, deliveryId: string) {
    const endpoint = await this.get(organizationId, endpointId);
    if (!endpoint.is_active) {
      throw AppError.conflict(
        'The endpoint is disabled; enable it before redelivering.',
        'webhook_endpoint_disabled',
      );
    }
    await this.delivery(organizationId, endpointId, deliveryId);
    const attempts = await this.webhooks.reopen(organizationId, deliveryId);
    await this.deliverer.enqueue(
      { deliveryId, endpointId: endpoint.id },
      attempts + 1,
      0,
      `-manual-${Date.now()}`,
    );
    return this.delivery(organizationId, endpointId, deliveryId);
  }

  private async withAttempts(organizationId: string, rows: DeliveryRow[]) {
    const attempts = await this.webhooks.attemptsOf(
      organizationId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      row,
      attempts: attempts.filter((attempt) => attempt.delivery_id === row.id),
    }));
  }

  /** `https` only, unless WEBHOOK_ALLOW_INSECURE (which also allows `http`). */
  private checkUrl(url: string): void {
    if (!url.startsWith('https://') && !this.config.env.WEBHOOK_ALLOW_INSECURE) {
      throw AppError.invalid('url', 'The url must use https.', 'webhook_https_required');
    }
  }
}
