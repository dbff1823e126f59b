import type { ConversationRow, ConversationStatus } from './conversations.repository';

export type { ConversationStatus };

/**
 * A conversation as the other features see it (issue 32, point 7): what
 * `ConversationsService.get` answers, mapped once from the table's row here, so no feature but
 * this one depends on `ConversationRow`.
 */
export interface ConversationRecord {
  id: string;
  siteId: string;
  visitorId: string;
  status: ConversationStatus;
  type: string;
  locale: string | null;
  assignedAgentId: string | null;
  startedAt: Date;
  closedAt: Date | null;
  closedByUserId: string | null;
  rating: number | null;
  reviewComment: string | null;
  reviewedAt: Date | null;
  /** Out of the open views until then (or until the visitor writes); null when not snoozed. */
  snoozedUntil: Date | null;
  visitorName: string | null;
  visitorEmail: string | null;
}

export const toConversationRecord = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  siteId: row.site_id,
  visitorId: row.visitor_id,
  status: row.status,
  type: row.type,
  locale: row.locale,
  assignedAgentId: row.assigned_agent_id,
  startedAt: row.started_at,
  closedAt: row.closed_at,
  closedByUserId: row.closed_by_user_id,
  rating: row.rating,
  reviewComment: row.review_comment,
  reviewedAt: row.reviewed_at,
  snoozedUntil: row.snoozed_until,
  visitorName: row.visitor_name,
  visitorEmail: row.visitor_email,
});
