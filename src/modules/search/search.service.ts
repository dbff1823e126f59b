import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import type { PageRequest } from '../../common/http/pagination';
import { AppConfig } from '../../config/app-config';
import type { SearchHitDto, SearchType } from './search.dto';
import { prefixTsQuery } from './search-query';
import { SearchRepository } from './search.repository';

const iso = (value: Date) => new Date(value).toISOString();
const id = (value: string | null) => (value === null ? null : Number(value));

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
          throw AppError.invalid('q', 'The search text must contain a letter or digit.');
        const { rows, total } = await this.repository.messages(organizationId, tsquery, page);
        return {
          total,
          rows: rows.map((row) => ({
            type: 'message',
            id: Number(row.id),
            title: `Message from the ${row.sender_type}`,
            excerpt: row.excerpt,
            conversation_id: Number(row.conversation_id),
            ticket_id: null,
            visitor_id: null,
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
            link: `${api}/tickets/${row.id}`,
            created_at: iso(row.created_at),
          })),
        };
      }
    }
  }
}
