import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';
import type { DomainEvent, DomainEventHandler } from './domain-event';
import type { DomainEventType } from './events/catalogue';
import { Subscribers } from './events/subscribers';
import type { ConsumerOf } from './events/subscriptions';

export interface OutboxBacklog {
  pending: number;
  lag_seconds: number;
  failed: number;
}

/**
 * Writes domain events into the caller's transaction and keeps the handlers that react to them.
 * Passing the transaction's EntityManager is what ties an event to the change that caused it.
 * Who subscribes to what is the table in `events/subscriptions.ts`.
 */
@Injectable()
export class OutboxService {
  private readonly subscribers = new Subscribers();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Events still to hand to their subscribers (`pending`), how long the oldest has waited
   * (`lag_seconds`, 0 when none), and those given up on after the last attempt (`failed`, kept a
   * week). For the metrics and the platform console; the pending rows are the dispatcher's index.
   */
  async backlog(): Promise<OutboxBacklog> {
    const [row] = await sql(
      this.dataSource,
      query<{
        pending: string;
        lag: number | null;
        failed: string;
      }>`SELECT COALESCE((SELECT count(*) FROM outbox_events
                WHERE processed_at IS NULL AND failed_at IS NULL), 0) AS pending,
              (SELECT extract(epoch FROM now() - created_at)::float8 FROM outbox_events
                WHERE processed_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT 1) AS lag,
              COALESCE((SELECT count(*) FROM outbox_events WHERE failed_at IS NOT NULL), 0) AS failed`,
    );
    return {
      pending: Number(row.pending),
      lag_seconds: Math.max(0, row.lag ?? 0),
      failed: Number(row.failed),
    };
  }

  async publish(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    // One statement for any number of events, as parallel arrays; ORDINALITY keeps their order
    // in the ids the dispatcher reads by.
    await sql(
      manager,
      query`INSERT INTO outbox_events (organization_id, event_type, payload)
       SELECT organization_id, event_type, payload
         FROM unnest($1::bigint[], $2::text[], $3::jsonb[]) WITH ORDINALITY
           AS e (organization_id, event_type, payload, position)
        ORDER BY position`,
      [
        events.map((event) => event.organizationId),
        events.map((event) => event.type),
        events.map((event) => event.payload),
      ],
    );
  }

  /** `handler` runs for each committed event of `types`; the table must name `consumer` for each. */
  subscribe<T extends DomainEventType>(
    types: T | readonly T[],
    consumer: ConsumerOf<T>,
    handler: DomainEventHandler<T>,
  ): void {
    this.subscribers.add(types, consumer, handler);
  }

  handlersFor(type: string) {
    return this.subscribers.handlersFor(type);
  }

  /** The table's entries nobody subscribed for, for the start-up check of the event worker. */
  missingSubscriptions(): string[] {
    return this.subscribers.missing();
  }
}
