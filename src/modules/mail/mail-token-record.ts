import type { MailTokenPurpose, MailTokenRow } from './mail.repository';

export type { MailTokenPurpose };

/**
 * What a reply or unsubscribe token in a mail is bound to, as the other features see it (issue 32,
 * point 7): mapped once from the table's row here, so no feature but this one depends on
 * `MailTokenRow`.
 */
export interface MailTokenRecord {
  organizationId: string;
  purpose: MailTokenPurpose;
  conversationId: string | null;
  ticketId: string | null;
  visitorId: string | null;
  /** The agent a notification went to: their answer by mail is written as them. */
  userId: string | null;
  recipient: string;
}

export const toMailTokenRecord = (row: MailTokenRow): MailTokenRecord => ({
  organizationId: row.organization_id,
  purpose: row.purpose,
  conversationId: row.conversation_id,
  ticketId: row.ticket_id,
  visitorId: row.visitor_id,
  userId: row.user_id,
  recipient: row.recipient,
});
