import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import {
  type VisitorDetailRow,
  type VisitorFilter,
  type VisitorRow,
  VisitorsRepository,
} from './visitors.repository';

@Injectable()
export class VisitorsService {
  constructor(private readonly visitors: VisitorsRepository) {}

  page(organizationId: string, filter: VisitorFilter, page: { perPage: number; offset: number }) {
    return this.visitors.page(organizationId, filter, page);
  }

  /** The visitor, if it belongs to the organization; else 404. */
  async get(organizationId: string, visitorId: string): Promise<VisitorRow> {
    const visitor = await this.visitors.find(organizationId, visitorId);
    if (!visitor) throw AppError.notFound();
    return visitor;
  }

  /** The visitor with `conversations_count` and `tickets_count`; else 404. */
  async detail(organizationId: string, visitorId: string): Promise<VisitorDetailRow> {
    const visitor = await this.visitors.findWithCounts(organizationId, visitorId);
    if (!visitor) throw AppError.notFound();
    return visitor;
  }
}
