// The SQL the service runs for the benchmarked routes, copied from
// src/modules/conversations/conversations.repository.ts, src/modules/messages/messages.repository.ts,
// src/modules/tickets/tickets.repository.ts and src/database/sql.ts (pageOf). The baseline runs
// it; bench:growth EXPLAINs it. Keep it in step with the repositories.

export const CONVERSATION = `SELECT c.id, c.site_id, c.visitor_id, c.status, c.type, c.locale, c.assigned_agent_id,
  c.started_at, c.closed_at, c.closed_by_user_id, v.name AS visitor_name, v.email AS visitor_email
  FROM conversations c JOIN visitors v ON v.id = c.visitor_id`;
const VISIBLE = `c.organization_id = $1 AND c.started_at IS NOT NULL`;
const FILTERS = `($2::text IS NULL OR c.status = $2) AND ($3::bigint IS NULL OR c.site_id = $3)
  AND ($4::bigint IS NULL OR c.assigned_agent_id = $4)`;
export const MESSAGE =
  'id, conversation_id, sender_type, sender_id, body, type, attachments, private, sender_mismatch, created_at';
const TICKET = 'id, ticket_number, subject, status, priority, source, created_at';

/** ConversationsRepository.find: the conversation a messages route names (404 without it). */
export const findConversation = (org, id) => ({
  text: `${CONVERSATION} WHERE ${VISIBLE} AND c.id = $2`,
  values: [org, id],
});

/** ConversationsRepository.page: the page and the total, run side by side. */
export function conversationsPage(org, { status = null, siteId = null }, page) {
  const filter = [org, status, siteId, null];
  return {
    rows: {
      text: `${CONVERSATION} WHERE ${VISIBLE} AND ${FILTERS} ORDER BY c.id DESC LIMIT $5 OFFSET $6`,
      values: [...filter, page.perPage, page.offset],
    },
    count: {
      text: `SELECT coalesce(sum(total), 0) AS total FROM conversation_totals
         WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
           AND ($3::bigint IS NULL OR site_id = $3) AND ($4::bigint IS NULL OR assigned_agent_id = $4)`,
      values: filter,
    },
  };
}

/** MessagesRepository.page through pageOf. */
export function messagesPage(org, conversationId, page) {
  const where = 'conversation_id = $1 AND organization_id = $2';
  return {
    rows: {
      text: `SELECT ${MESSAGE} FROM messages WHERE ${where}
       ORDER BY id DESC LIMIT $3 OFFSET $4`,
      values: [conversationId, org, page.perPage, page.offset],
    },
    count: {
      text: `SELECT count(*) AS total FROM messages WHERE ${where}`,
      values: [conversationId, org],
    },
  };
}

/** TicketsRepository.page through pageOf. */
export function ticketsPage(org, { status }, page) {
  const where = status ? 'organization_id = $1 AND status = $2' : 'organization_id = $1';
  const values = status ? [org, status] : [org];
  const n = values.length;
  return {
    rows: {
      text: `SELECT ${TICKET} FROM tickets WHERE ${where}
       ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      values: [...values, page.perPage, page.offset],
    },
    count: {
      text: `SELECT coalesce(sum(total), 0) AS total FROM ticket_totals WHERE ${where}`,
      values,
    },
  };
}
