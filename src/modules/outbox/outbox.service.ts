import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainEvent, DomainEventHandler } from './domain-event';
import type { DomainEventType } from './events/catalogue';
import { Subscribers } from './events/subscribers';
import type { ConsumerOf } from './events/subscriptions';

/**
 * Writes domain events into the caller's transaction and keeps the handlers that react to them.
 * Passing the transaction's EntityManager is what ties an event to the change that caused it.
 * Who subscribes to what is the table in `events/subscriptions.ts`.
 */
@Injectable()
export class OutboxService {
  private readonly subscribers = new Subscribers();

  async publish(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    const values: unknown[] = [];
    const rows = events.map((event, index) => {
      values.push(event.organizationId, event.type, event.payload);
      return `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`;
    });
    await manager.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ${rows.join(', ')}`,
      values,
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
