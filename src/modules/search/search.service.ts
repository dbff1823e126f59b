import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import type { PageRequest } from '../../common/http/pagination';
import { AppConfig } from '../../config/app-config';
import type { SearchHitDto, SearchType } from './search.dto';
import { prefixTsQuery } from './search-query';
import { type MessageHitRow, SearchRepository } from './search.repository';
import { iso } from '../../common/time/iso';

const id = (value: string | null) => (value === null ? null : Number(value));

/** "Private note in the chat with Ada", "Message from Ada", "Reply to Ada". */
function messageTitle(row: MessageHitRow): string {
  const visitor = row.visitor_name ?? `visitor ${row.visitor_id ?? ''}`.trim();
  if (row.private) return `Private note in the chat with ${visitor}`;
  if (row.sender_type === 'visitor') return `Message from ${visitor}`;
  return `Reply to ${visitor}`;
}

/** Full-text search over the organization's messages, visitors and tickets. */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly config: AppConfig,
  ) {}

  async search(
    organizationId: string,
    type: SearchType,
    text: string,
    page: PageRequest,
  ): Promise<{ rows: SearchHitDto[]; total: number }> {
    const api = `${this.config.publicUrl}/api/agent`;
    switch (type) {
      case 'messages': {
        const tsquery = prefixTsQuery(text);
        if (!tsquery)
          throw AppError.invalid(
            'q',
            'The search text must contain a letter or digit.',
            'search_text_empty',
          );
        const { rows, total } = await this.repository.messages(organizationId, tsquery, page);
        return {
          total,
          rows: rows.map((row) => ({
            type: 'message',
            id: Number(row.id),
            title: messageTitle(row),
            excerpt: row.excerpt,
            conversation_id: Number(row.conversation_id),
            ticket_id: null,
            visitor_id: id(row.visitor_id),
            visitor_name: row.visitor_name,
            sender_type: row.sender_type,
            private: row.private,
            link: `${api}/conversations/${row.conversation_id}`,
            created_at: iso(row.created_at),
          })),
        };
      }
      case 'visitors': {
        const { rows, total } = await this.repository.visitors(organizationId, text.trim(), page);
        return {
          total,
          rows: rows.map((row) => ({
            type: 'visitor',
            id: Number(row.id),
            title: row.name ?? row.email ?? row.phone ?? `Visitor ${row.id}`,
            excerpt: [row.email, row.phone].filter(Boolean).join(' · ') || null,
            conversation_id: id(row.conversation_id),
            ticket_id: null,
            visitor_id: Number(row.id),
            visitor_name: row.name ?? row.email,
            sender_type: null,
            private: false,
            link: `${api}/visitors/${row.id}`,
            created_at: iso(row.created_at),
          })),
        };
      }
      case 'tickets': {
        const { rows, total } = await this.repository.tickets(organizationId, text.trim(), page);
        return {
          total,
          rows: rows.map((row) => ({
            type: 'ticket',
            id: Number(row.id),
            title: `${row.ticket_number} ${row.subject}`,
            excerpt: row.subject,
            conversation_id: id(row.conversation_id),
            ticket_id: Number(row.id),
            visitor_id: null,
            visitor_name: null,
            sender_type: null,
            private: false,
            link: `${api}/tickets/${row.id}`,
            created_at: iso(row.created_at),
          })),
        };
      }
    }
  }
}
