import { domainEvent } from '../outbox/domain-event';

/** The agent events (internal, no webhook). */
export const agentEvents = {
  /** The agent came online: automatic assignment offers the waiting chats again. */
  online: (organizationId: string, userId: string) =>
    domainEvent('agent.online', organizationId, { agent_id: Number(userId) }),
};
