import type { DomainEventPayloads, DomainEventType } from './events/catalogue';

export type { DomainEventPayloads, DomainEventType } from './events/catalogue';

/**
 * A fact a feature announces after changing state, as it is published: its name and the payload
 * that name carries (a union over the names, so a misspelt name or a wrong payload does not
 * compile). Built by the feature's builders (`*-events.ts`), never inline.
 */
export type DomainEvent<T extends DomainEventType = DomainEventType> = {
  [K in T]: { type: K; organizationId: string; payload: DomainEventPayloads[K] };
}[T];

/** A committed domain event as its subscribers receive it. */
export type DomainEventRecord<T extends DomainEventType = DomainEventType> = {
  [K in T]: {
    outboxId: string;
    type: K;
    organizationId: string | null;
    payload: DomainEventPayloads[K];
    occurredAt: string;
  };
}[T];

/** Something that reacts to committed events. Runs on a worker, at least once per event. */
export type DomainEventHandler<T extends DomainEventType = DomainEventType> = (
  event: DomainEventRecord<T>,
) => Promise<void>;

/** The one way to make an event: the payload of its name, led by the `organization_id`. */
export function domainEvent<T extends DomainEventType>(
  type: T,
  organizationId: string,
  payload: Omit<DomainEventPayloads[T], 'organization_id'>,
): DomainEvent<T> {
  return {
    type,
    organizationId,
    payload: { organization_id: Number(organizationId), ...payload },
  } as DomainEvent<T>;
}
