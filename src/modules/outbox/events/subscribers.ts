import type { DomainEventHandler, DomainEventRecord } from '../domain-event';
import type { DomainEventType } from './catalogue';
import { type Consumer, type ConsumerOf, SUBSCRIPTIONS } from './subscriptions';

interface Subscription {
  consumer: Consumer;
  handler: (event: DomainEventRecord) => Promise<void>;
}

/** The handlers subscribed to each event, held to the table in `subscriptions.ts`. */
export class Subscribers {
  private readonly byType = new Map<string, Subscription[]>();

  /** `consumer` must be named for each of `types` in `SUBSCRIPTIONS` (checked by tsc, and here). */
  add<T extends DomainEventType>(
    types: T | readonly T[],
    consumer: ConsumerOf<T>,
    handler: DomainEventHandler<T>,
  ): void {
    const name = consumer as Consumer;
    for (const type of typeof types === 'string' ? [types] : types) {
      const listed: readonly Consumer[] = SUBSCRIPTIONS[type];
      if (!listed.includes(name)) {
        throw new Error(
          `${name} subscribes to ${type} but outbox/events/subscriptions.ts does not say so`,
        );
      }
      // A record reaches only the handlers of its own type.
      const subscription = { consumer: name, handler: handler as Subscription['handler'] };
      this.byType.set(type, [...(this.byType.get(type) ?? []), subscription]);
    }
  }

  /** The handlers of an event name as the outbox row spells it (none for an unknown name). */
  handlersFor(type: string): Subscription['handler'][] {
    return (this.byType.get(type) ?? []).map((subscription) => subscription.handler);
  }

  /** The table's entries (`event: Consumer`) no handler was subscribed for. */
  missing(): string[] {
    return Object.entries(SUBSCRIPTIONS).flatMap(([type, consumers]) =>
      consumers
        .filter((consumer) => !this.byType.get(type)?.some((s) => s.consumer === consumer))
        .map((consumer) => `${type}: ${consumer}`),
    );
  }
}
