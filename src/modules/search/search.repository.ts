import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { escapeLike, handTyped, pageOf, query } from '../../database/sql';

export interface MessageHitRow {
  id: string;
  conversation_id: string;
  sender_type: string;
  private: boolean;
  excerpt: string;
  created_at: Date;
  visitor_id: string | null;
  visitor_name: string | null;
}

export interface VisitorHitRow {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  conversation_id: string | null;
  created_at: Date;
}

export interface TicketHitRow {
  id: string;
  ticket_number: string;
  subject: string;
  status: string;
  conversation_id: string | null;
  created_at: Date;
}

type Page = { perPage: number; offset: number };

/**
 * Organization-wide search, each kind over its own index; newest first. A search counts at most
 * 10 000 matches: `total` (and so `last_page`) stop there, whatever matches.
 */
@Injectable()
export class SearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Full text over message bodies (messages_search_idx: organization id and words in one GIN). */
  messages(organizationId: string, tsquery: string, page: Page) {
    return pageOf(
      this.dataSource,
      {
        // The visitor of a hit's conversation: scalar subqueries, run for the page's rows only.
        rows: handTyped<MessageHitRow>`SELECT id, conversation_id, sender_type, private, left(body, 200) AS excerpt,
             created_at,
             (SELECT c.visitor_id FROM conversations c WHERE c.id = messages.conversation_id
               AND c.organization_id = messages.organization_id) AS visitor_id,
             (SELECT (SELECT coalesce(vi.name, vi.email) FROM visitors vi WHERE vi.id = c.visitor_id)
               FROM conversations c WHERE c.id = messages.conversation_id
               AND c.organization_id = messages.organization_id) AS visitor_name
           FROM messages WHERE organization_id = $1 AND search_vector @@ to_tsquery('simple', $2)
           ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM (SELECT 1
           FROM messages WHERE organization_id = $1 AND search_vector @@ to_tsquery('simple', $2)
           LIMIT 10000) AS counted`,
      },
      [organizationId, tsquery],
      page,
    );
  }

  /** Name, email or phone containing the text, any case (visitors_panel_search_trgm_idx). */
  visitors(organizationId: string, text: string, page: Page) {
    return pageOf(
      this.dataSource,
      {
        rows: query<VisitorHitRow>`SELECT id, name, email, phone, created_at, (SELECT c.id FROM conversations c
             WHERE c.visitor_id = visitors.id AND c.started_at IS NOT NULL ORDER BY c.id DESC LIMIT 1)
             AS conversation_id
           FROM visitors WHERE organization_id = $1
             AND (coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')) ILIKE '%' || $2 || '%'
           ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM (SELECT 1
           FROM visitors WHERE organization_id = $1
             AND (coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')) ILIKE '%' || $2 || '%'
           LIMIT 10000) AS counted`,
      },
      [organizationId, escapeLike(text)],
      page,
    );
  }

  /** Ticket number or subject containing the text, any case (tickets_search_trgm_idx). */
  tickets(organizationId: string, text: string, page: Page) {
    return pageOf(
      this.dataSource,
      {
        rows: handTyped<TicketHitRow>`SELECT id, ticket_number, subject, status, conversation_id, created_at
           FROM tickets WHERE organization_id = $1 AND (ticket_number || ' ' || subject) ILIKE '%' || $2 || '%'
           ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM (SELECT 1
           FROM tickets WHERE organization_id = $1 AND (ticket_number || ' ' || subject) ILIKE '%' || $2 || '%'
           LIMIT 10000) AS counted`,
      },
      [organizationId, escapeLike(text)],
      page,
    );
  }
}
