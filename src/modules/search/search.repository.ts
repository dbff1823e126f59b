import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { escapeLike, pageOf } from '../../database/sql';

export interface MessageHitRow {
  id: string;
  conversation_id: string;
  sender_type: string;
  excerpt: string;
  created_at: Date;
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

/** The most a search counts: `total` (and so `last_page`) stop there, whatever matches. */
export const SEARCH_COUNT_LIMIT = 10_000;

/** Same expression as visitors_panel_search_trgm_idx. */
const VISITOR_TEXT = `(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, ''))`;

/** Organization-wide search, each kind over its own index; newest first. */
@Injectable()
export class SearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Full text over message bodies (messages_search_idx: organization id and words in one GIN). */
  messages(organizationId: string, tsquery: string, page: Page) {
    return pageOf<MessageHitRow>(
      this.dataSource,
      {
        columns: `id, conversation_id, sender_type, left(body, 200) AS excerpt, created_at`,
        from: 'messages',
        where: `organization_id = $1 AND search_vector @@ to_tsquery('simple', $2)`,
        parameters: [organizationId, tsquery],
        orderBy: 'id DESC',
        countLimit: SEARCH_COUNT_LIMIT,
      },
      page,
    );
  }

  /** Name, email or phone containing the text, any case (trigram index). */
  visitors(organizationId: string, text: string, page: Page) {
    return pageOf<VisitorHitRow>(
      this.dataSource,
      {
        columns: `id, name, email, phone, created_at, (SELECT c.id FROM conversations c
          WHERE c.visitor_id = visitors.id AND c.started_at IS NOT NULL ORDER BY c.id DESC LIMIT 1)
          AS conversation_id`,
        from: 'visitors',
        where: `organization_id = $1 AND ${VISITOR_TEXT} ILIKE '%' || $2 || '%'`,
        parameters: [organizationId, escapeLike(text)],
        orderBy: 'id DESC',
        countLimit: SEARCH_COUNT_LIMIT,
      },
      page,
    );
  }

  /** Ticket number or subject containing the text, any case (tickets_search_trgm_idx). */
  tickets(organizationId: string, text: string, page: Page) {
    return pageOf<TicketHitRow>(
      this.dataSource,
      {
        columns: 'id, ticket_number, subject, status, conversation_id, created_at',
        from: 'tickets',
        where: `organization_id = $1 AND (ticket_number || ' ' || subject) ILIKE '%' || $2 || '%'`,
        parameters: [organizationId, escapeLike(text)],
        orderBy: 'id DESC',
        countLimit: SEARCH_COUNT_LIMIT,
      },
      page,
    );
  }
}
