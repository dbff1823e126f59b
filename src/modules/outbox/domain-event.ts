/** A fact a feature announces after changing state; webhooks and other features react to it. */
export interface DomainEvent<P extends Record<string, unknown> = Record<string, unknown>> {
  type: string;
  organizationId: string | number | null;
  payload: P;
}

/** Something that reacts to committed domain events. Runs on a worker, at least once per event. */
export type DomainEventHandler = (event: {
  outboxId: string;
  type: string;
  organizationId: string | null;
  payload: Record<string, unknown>;
  occurredAt: string;
}) => Promise<void>;
