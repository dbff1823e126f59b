import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

export interface SeedMessage {
  sender: 'visitor' | 'agent' | 'bot' | 'system';
  body: string;
  senderId?: number;
}

/**
 * A started conversation with its visitor and messages, written straight to the database (the
 * widget, which creates them in production, is a later feature).
 */
export async function createConversation(
  db: Pool,
  input: {
    organizationId: number;
    siteId: number;
    status?: 'waiting' | 'active' | 'closed' | 'missed';
    visitorName?: string;
    messages?: SeedMessage[];
    started?: boolean;
  },
): Promise<{ id: number; visitorId: number; messageIds: number[] }> {
  const visitor = await db.query<{ id: string }>(
    `INSERT INTO visitors (organization_id, site_id, visitor_uid, name, email) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      input.organizationId,
      input.siteId,
      randomUUID(),
      input.visitorName ?? 'Vera Visitor',
      'vera@example.test',
    ],
  );
  const conversation = await db.query<{ id: string }>(
    `INSERT INTO conversations (organization_id, site_id, visitor_id, status, locale, started_at, closed_at)
     VALUES ($1, $2, $3, $4, 'en', CASE WHEN $5 THEN now() END, CASE WHEN $4 = 'closed' THEN now() - interval '1 hour' END)
     RETURNING id`,
    [
      input.organizationId,
      input.siteId,
      visitor.rows[0].id,
      input.status ?? 'waiting',
      input.started ?? true,
    ],
  );
  const messageIds: number[] = [];
  for (const message of input.messages ?? [{ sender: 'visitor', body: 'Hello, I need help' }]) {
    const row = await db.query<{ id: string }>(
      `INSERT INTO messages (organization_id, conversation_id, sender_type, sender_id, body) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [
        input.organizationId,
        conversation.rows[0].id,
        message.sender,
        message.senderId ?? null,
        message.body,
      ],
    );
    messageIds.push(Number(row.rows[0].id));
  }
  return { id: Number(conversation.rows[0].id), visitorId: Number(visitor.rows[0].id), messageIds };
}

export async function outboxEvents(db: Pool, type: string): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM outbox_events WHERE event_type = $1 ORDER BY id`,
    [type],
  );
  return rows.map((row) => row.payload);
}
