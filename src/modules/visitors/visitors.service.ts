import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type VisitorContext,
  type VisitorDetailRow,
  type VisitorFilter,
  VisitorsRepository,
} from './visitors.repository';
import {
  toVisitorRecord,
  toWidgetVisitorRecord,
  type VisitorRecord,
  type WidgetVisitorRecord,
} from './visitor-record';

export type { VisitorRecord, WidgetVisitorRecord } from './visitor-record';

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
  async get(organizationId: string, visitorId: string): Promise<VisitorRecord> {
    const visitor = await this.visitors.find(organizationId, visitorId);
    if (!visitor) throw AppError.notFound();
    return toVisitorRecord(visitor);
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
  ): Promise<WidgetVisitorRecord> {
    if (
      sessionVisitorId !== undefined &&
      (await this.visitors.sessionLive(site.organizationId, sessionVisitorId))
    ) {
      return toWidgetVisitorRecord(
        await this.visitors.resume(manager, site.organizationId, sessionVisitorId, context),
      );
    }
    if (visitorUid !== undefined) {
      const id = await this.visitors.idByUid(site.organizationId, site.siteId, visitorUid);
      if (id) {
        return toWidgetVisitorRecord(
          await this.visitors.resume(manager, site.organizationId, id, context),
        );
      }
      if (await this.visitors.uidExists(visitorUid)) throw AppError.notFound();
    }
    return toWidgetVisitorRecord(
      await this.visitors.insert(manager, site.organizationId, site.siteId, context),
    );
  }

  async widgetVisitor(organizationId: string, visitorId: string): Promise<WidgetVisitorRecord> {
    const visitor = await this.visitors.widgetVisitor(
      this.dataSource.manager,
      organizationId,
      visitorId,
    );
    if (!visitor) throw AppError.notFound();
    return toWidgetVisitorRecord(visitor);
  }

  async saveProfile(
    organizationId: string,
    visitorId: string,
    profile: {
      name?: string;
      email?: string;
      phone?: string;
      customFields: Record<string, string>;
    },
  ): Promise<WidgetVisitorRecord> {
    return toWidgetVisitorRecord(
      await this.visitors.saveProfile(organizationId, visitorId, profile),
    );
  }

  /** Saves the address the visitor gave to be answered at. */
  async recordConsent(organizationId: string, visitorId: string): Promise<Date> {
    const at = await this.visitors.recordConsent(organizationId, visitorId);
    if (!at) throw AppError.notFound();
    return at;
  }

  async saveEmail(
    organizationId: string,
    visitorId: string,
    email: string,
  ): Promise<WidgetVisitorRecord> {
    const saved = await this.visitors.saveEmail(organizationId, visitorId, email);
    if (!saved) throw AppError.notFound();
    return toWidgetVisitorRecord(saved);
  }

  /** The visitor's page, referrer, browser and time zone, as the widget reports them. */
  recordContext(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    context: Parameters<VisitorsRepository['recordContext']>[3],
  ): Promise<boolean> {
    return this.visitors.recordContext(manager, organizationId, visitorId, context);
  }

  /** The host page the visitor moved to (the widget's `page` event). */
  async recordPage(
    organizationId: string,
    visitorId: string,
    page: { url: string; title?: string; referrer?: string },
  ): Promise<void> {
    await this.visitors.recordContext(this.dataSource.manager, organizationId, visitorId, {
      pageUrl: page.url,
      pageTitle: page.title,
      referrer: page.referrer,
    });
  }
}
