import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainEvent, DomainEventHandler } from './domain-event';

/**
 * Writes domain events into the caller's transaction and keeps the handlers that react to them.
 * Passing the transaction's EntityManager is what ties an event to the change that caused it.
 */
@Injectable()
export class OutboxService {
  private readonly handlers = new Map<string, DomainEventHandler[]>();

  async publish(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    const values: unknown[] = [];
    const rows = events.map((event, index) => {
      values.push(
        event.organizationId === null ? null : String(event.organizationId),
        event.type,
        event.payload,
      );
      return `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`;
    });
    await manager.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ${rows.join(', ')}`,
      values,
    );
  }

  /** `type` is an event name, or `*` for every event. */
  subscribe(type: string, handler: DomainEventHandler): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  handlersFor(type: string): DomainEventHandler[] {
    return [...(this.handlers.get(type) ?? []), ...(this.handlers.get('*') ?? [])];
  }
}
