import { Injectable } from '@nestjs/common';
import { SiteCache } from '../../common/invalidation/site-cache';
import { AppConfig } from '../../config/app-config';
import { type ArticleHitDto, toArticleHitDto } from './knowledge-base.dto';
import {
  type ArticleFilter,
  type ArticleHitRow,
  type ArticleStatus,
  KnowledgeBaseRepository,
} from './knowledge-base.repository';
import { articleUrl } from './knowledge-base.service';

/** A published article answering a visitor's question (the answer bot): its passage and score. */
export interface ArticleAnswer {
  id: string;
  title: string;
  /** The article's address in the help center. */
  url: string;
  /** The best-matching passage of its body. */
  passage: string;
  score: number;
}

export interface SearchQuery {
  site_id?: number;
  locale?: string;
  status?: ArticleStatus;
  category_id?: number;
  q?: string;
}

/**
 * The one knowledge-base search (DESIGN section 10): the dashboard's and the public API's lists,
 * the widget, the help center and the answer bot all ask it. Without `q` it lists newest first.
 */
@Injectable()
export class KnowledgeBaseSearch {
  constructor(
    private readonly repository: KnowledgeBaseRepository,
    private readonly config: AppConfig,
    private readonly cache: SiteCache,
  ) {}

  /**
   * A visitor's search of a site's published articles in one locale (the help center's search
   * page and the widget's Help view): one page, no total, kept in memory until the site's
   * articles change (SiteCache), the same words whatever their case and spacing.
   */
  async published(
    site: { organizationId: string; siteId: string },
    locale: string,
    words: string,
    perPage: number,
  ): Promise<ArticleHitRow[]> {
    const key = ['search', site.siteId, locale, perPage, words.toLowerCase().replace(/\s+/g, ' ')];
    const rows = await this.cache.get(
      key.join('\u0000'),
      async () => {
        const found = await this.repository.search(
          site.organizationId,
          { siteId: site.siteId, locale, status: 'published' },
          words,
          { perPage, offset: 0 },
          false,
        );
        return found.rows;
      },
      () => site.siteId,
    );
    return rows ?? [];
  }

  async list(
    organizationId: string,
    query: SearchQuery,
    page: { perPage: number; offset: number },
  ): Promise<{ data: ArticleHitDto[]; total: number }> {
    const filter: ArticleFilter = {
      siteId: query.site_id === undefined ? undefined : String(query.site_id),
      locale: query.locale,
      status: query.status,
      categoryId: query.category_id === undefined ? undefined : String(query.category_id),
    };
    const q = query.q?.trim();
    const { rows, total } = q
      ? await this.repository.search(organizationId, filter, q, page)
      : await this.repository.articlePage(organizationId, filter, page);
    const data = rows.map((row) => toArticleHitDto(row, articleUrl(this.config.publicUrl, row)));
    return { data, total };
  }

  /** Published articles answering a visitor's question, best first, with their address. */
  async forQuestion(
    organizationId: string,
    site: { id: string; locale: string },
    text: string,
    limit = 3,
  ): Promise<ArticleAnswer[]> {
    const rows = await this.repository.answersFor(
      organizationId,
      site.id,
      site.locale,
      text.slice(0, 500),
      limit,
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      url: articleUrl(this.config.publicUrl, row),
      passage: row.passage,
      score: row.score,
    }));
  }
}
