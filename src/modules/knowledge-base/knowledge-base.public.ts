import { Injectable } from '@nestjs/common';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { helpCenterWithDefaults } from '../sites/help-center-settings';
import { SitesService } from '../sites/sites.service';
import { snippetHtml, type WidgetArticleDto, type WidgetArticleHitDto } from './knowledge-base.dto';
import {
  type ArticleHitRow,
  type ArticleSummaryRow,
  KnowledgeBaseRepository,
} from './knowledge-base.repository';
import { KnowledgeBaseSearch } from './knowledge-base.search';
import { articleUrl } from './knowledge-base.service';

const WIDGET_RESULTS = 10;

/** Published articles as visitors see them: the widget's Help view (and its counts). */
@Injectable()
export class KnowledgeBasePublic {
  constructor(
    private readonly repository: KnowledgeBaseRepository,
    private readonly sites: SitesService,
    private readonly config: AppConfig,
    private readonly search: KnowledgeBaseSearch,
  ) {}

  private hit(row: ArticleSummaryRow | ArticleHitRow): WidgetArticleHitDto {
    return {
      id: Number(row.id),
      locale: row.locale,
      title: row.title,
      excerpt: row.excerpt,
      snippet: 'snippet' in row ? snippetHtml(row.snippet) : null,
      url: articleUrl(this.config.publicUrl, row),
    };
  }

  /** The visitor's locale when given, else the help center's default. */
  private async localeOf(visitor: VisitorPrincipal, locale: string | undefined): Promise<string> {
    if (locale) return locale;
    const site = await this.sites.get(visitor.organizationId, visitor.siteId);
    return helpCenterWithDefaults(site.helpCenter).default_locale;
  }

  async widgetSearch(
    visitor: VisitorPrincipal,
    q: string | undefined,
    requestedLocale: string | undefined,
  ): Promise<{ data: WidgetArticleHitDto[]; suggested: boolean }> {
    const locale = await this.localeOf(visitor, requestedLocale);
    const words = q?.trim();
    if (!words) {
      const rows = await this.repository.popular(
        visitor.organizationId,
        visitor.siteId,
        locale,
        WIDGET_RESULTS,
      );
      return { data: rows.map((row) => this.hit(row)), suggested: true };
    }
    const rows = await this.search.published(
      { organizationId: visitor.organizationId, siteId: visitor.siteId },
      locale,
      words,
      WIDGET_RESULTS,
    );
    return { data: rows.map((row) => this.hit(row)), suggested: false };
  }

  async widgetArticle(visitor: VisitorPrincipal, id: string): Promise<WidgetArticleDto> {
    const row = await this.repository.findPublished(visitor.organizationId, visitor.siteId, id);
    if (!row) throw AppError.notFound();
    await this.repository.recordView(visitor.organizationId, id, visitor.visitorId);
    return {
      id: Number(row.id),
      locale: row.locale,
      title: row.title,
      excerpt: row.excerpt,
      html: row.body_html,
      published_at: row.published_at === null ? null : new Date(row.published_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
      url: articleUrl(this.config.publicUrl, row),
    };
  }

  /** Once per visitor and article: the second answer is a 409. */
  async feedback(visitor: VisitorPrincipal, id: string, helpful: boolean): Promise<void> {
    const row = await this.repository.findPublished(visitor.organizationId, visitor.siteId, id);
    if (!row) throw AppError.notFound();
    const counts = await this.repository.recordFeedback(
      visitor.organizationId,
      id,
      visitor.visitorId,
      helpful,
    );
    if (!counts)
      throw AppError.conflict(
        'You have already said whether this article helped.',
        'feedback_given',
      );
  }
}
