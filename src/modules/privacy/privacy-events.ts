import { domainEvent } from '../outbox/domain-event';

/** The privacy events. */
export const privacyEvents = {
  /** A visitor was erased (DESIGN section 12): the ids only, nothing of what was erased. */
  visitorErased: (
    organizationId: string,
    visitor: { id: string; site_id: string },
    conversationIds: string[],
    erasedAt: Date,
  ) =>
    domainEvent('visitor.erased', organizationId, {
      visitor_id: Number(visitor.id),
      site_id: Number(visitor.site_id),
      conversation_ids: conversationIds.map(Number),
      erased_at: erasedAt.toISOString(),
    }),
};
