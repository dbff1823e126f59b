/** A fact a feature announces after changing state; webhooks and other features react to it. */
export interface DomainEvent<P extends Record<string, unknown> = Record<string, unknown>> {
  type: string;
  organizationId: string | number | null;
  payload: P;
}

/** A committed domain event as its subscribers receive it. */
export interface DomainEventRecord {
  outboxId: string;
  type: string;
  organizationId: string | null;
  payload: Record<string, unknown>;
  occurredAt: string;
}

/** Something that reacts to committed domain events. Runs on a worker, at least once per event. */
export type DomainEventHandler = (event: DomainEventRecord) => Promise<void>;
