import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type VisitorContext,
  type VisitorDetailRow,
  type VisitorFilter,
  type VisitorRow,
  VisitorsRepository,
  type WidgetVisitorRow,
} from './visitors.repository';

@Injectable()
export class VisitorsService {
  constructor(
    private readonly visitors: VisitorsRepository,
    private readonly dataSource: DataSource,
  ) {}

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

  /** The id of the site's visitor with this UID (widget authentication). */
  idByUid(organizationId: string, siteId: string, visitorUid: string): Promise<string | undefined> {
    return this.visitors.idByUid(organizationId, siteId, visitorUid);
  }

  /** The visitor `visitorId` when it is the site's and its session goes on. */
  async idOfSite(
    organizationId: string,
    siteId: string,
    visitorId: string,
  ): Promise<string | undefined> {
    return (await this.visitors.sessionLive(organizationId, visitorId, siteId))
      ? visitorId
      : undefined;
  }

  sessionLive(organizationId: string, visitorId: string): Promise<boolean> {
    return this.visitors.sessionLive(organizationId, visitorId);
  }

  endSession(manager: EntityManager, organizationId: string, visitorId: string): Promise<void> {
    return this.visitors.endSession(manager, organizationId, visitorId);
  }

  /**
   * The visitor of a widget `init`: the visitor of the widget's own session token, else the site's
   * visitor `visitorUid` (its context refreshed; an ended session's UID is 404 like a UID
   * of another site is 404, and without a UID, or with one nobody has, a new visitor with a
   * fresh UID.
   */
  async openSession(
    manager: EntityManager,
    site: { organizationId: string; siteId: string },
    visitorUid: string | undefined,
    context: VisitorContext,
    /** The visitor of a verified session token of this site: resumed while its session lives. */
    sessionVisitorId?: string,
  ): Promise<WidgetVisitorRow> {
    if (
      sessionVisitorId !== undefined &&
      (await this.visitors.sessionLive(site.organizationId, sessionVisitorId))
    ) {
      return this.visitors.resume(manager, site.organizationId, sessionVisitorId, context);
    }
    if (visitorUid !== undefined) {
      const id = await this.visitors.idByUid(site.organizationId, site.siteId, visitorUid);
      if (id) return this.visitors.resume(manager, site.organizationId, id, context);
      if (await this.visitors.uidExists(visitorUid)) throw AppError.notFound();
    }
    return this.visitors.insert(manager, site.organizationId, site.siteId, context);
  }

  async widgetVisitor(organizationId: string, visitorId: string): Promise<WidgetVisitorRow> {
    const visitor = await this.visitors.widgetVisitor(
      this.dataSource.manager,
      organizationId,
      visitorId,
    );
    if (!visitor) throw AppError.notFound();
    return visitor;
  }

  saveProfile(
    organizationId: string,
    visitorId: string,
    profile: {
      name?: string;
      email?: string;
      phone?: string;
      customFields: Record<string, string>;
    },
  ): Promise<WidgetVisitorRow> {
    return this.visitors.saveProfile(organizationId, visitorId, profile);
  }
}
