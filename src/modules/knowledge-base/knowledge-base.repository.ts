import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { escapeLike, handTyped, pageOf, query, sql, type SqlExecutor } from '../../database/sql';

export type ArticleStatus = 'draft' | 'published' | 'archived';
export const ARTICLE_STATUSES: readonly ArticleStatus[] = ['draft', 'published', 'archived'];

export interface CategoryRow {
  id: string;
  site_id: string;
  locale: string;
  name: string;
  slug: string;
  description: string | null;
  position: number;
  created_at: Date;
  updated_at: Date;
}

/** An article without its body (lists); `widget_key` names its help center. */
export interface ArticleSummaryRow {
  id: string;
  site_id: string;
  widget_key: string;
  locale: string;
  category_id: string | null;
  translation_of: string | null;
  title: string;
  slug: string;
  excerpt: string | null;
  status: ArticleStatus;
  views: number;
  helpful: number;
  not_helpful: number;
  source_url: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ArticleRow extends ArticleSummaryRow {
  body: string;
  body_html: string;
  import_suggestion: string | null;
}

/** An article a content import wrote, as the next import finds it. */
export interface ImportedArticleRow {
  id: string;
  body: string;
  imported_hash: string | null;
}

/** A search hit: the summary, its rank and a snippet with \u0001…\u0002 around the matches. */
export interface ArticleHitRow extends ArticleSummaryRow {
  rank: number;
  snippet: string | null;
}

export interface TranslationRow {
  id: string;
  locale: string;
  title: string;
  slug: string;
  status: ArticleStatus;
}

export interface ArticleFilter {
  siteId?: string;
  locale?: string;
  status?: ArticleStatus;
  categoryId?: string;
}

export interface ArticleInput {
  site_id: string;
  locale: string;
  category_id: string | null;
  translation_of: string | null;
  title: string;
  slug: string;
  body: string;
  body_html: string;
  body_text: string;
  excerpt: string | null;
  status: ArticleStatus;
  source_url: string | null;
}

const SUMMARY_COLUMNS = `a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
  a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
  a.published_at, a.created_at, a.updated_at`;
/** How many of the best text matches get the finer score in `answersFor`. */
const ANSWER_CANDIDATES = 10;

/**
 * The text-search configuration of a search: the locale's when the filter names one (built once,
 * so the GIN index serves the match), else each article's own.
 */
const searchConfig = (filter: ArticleFilter) =>
  filter.locale ? 'kb_search_config($3::text)' : 'kb_search_config(a.locale)';

/**
 * The filter and the match of a search over `kb_articles a`, on the parameters of `search`:
 * full text (`text`), title typos not matched by the text (`typos`), or either (`both`).
 */
function searchWhere(filter: ArticleFilter, match: 'both' | 'text' | 'typos'): string {
  const text = `a.search_vector @@ to_tsquery(${searchConfig(filter)}, $6)`;
  const typos = `($7 <% a.title OR $7 % a.title)`;
  const matched =
    match === 'text'
      ? text
      : match === 'typos'
        ? `${typos} AND NOT (${text})`
        : `(${text} OR ${typos})`;
  return `a.organization_id = $1 AND ($2::bigint IS NULL OR a.site_id = $2)
    AND ($3::text IS NULL OR a.locale = $3) AND ($4::text IS NULL OR a.status = $4)
    AND ($5::bigint IS NULL OR a.category_id = $5) AND ${matched}`;
}

/** The words of a search as a prefix-matching tsquery text: `reset & pass:*`; '' when none. */
export function prefixQuery(q: string): string {
  const words = q.match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.slice(0, 12);
  return kept.map((word, index) => (index === kept.length - 1 ? `${word}:*` : word)).join(' & ');
}

@Injectable()
export class KnowledgeBaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  // Categories -------------------------------------------------------------------------------

  categoryPage(
    organizationId: string,
    filter: { siteId?: string; locale?: string },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: CategoryRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<CategoryRow>`SELECT id, site_id, locale, name, slug, description, position, created_at, updated_at FROM kb_categories
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
          AND ($3::text IS NULL OR locale = $3)
          ORDER BY site_id, locale, position, name, id LIMIT $4 OFFSET $5`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM kb_categories
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
          AND ($3::text IS NULL OR locale = $3)`,
      },
      [organizationId, filter.siteId ?? null, filter.locale ?? null],
      page,
    );
  }

  async findCategory(
    organizationId: string,
    id: string,
    executor: SqlExecutor = this.dataSource,
  ): Promise<CategoryRow | undefined> {
    const rows = await sql(
      executor,
      query<CategoryRow>`SELECT id, site_id, locale, name, slug, description, position, created_at, updated_at FROM kb_categories WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  async insertCategory(
    organizationId: string,
    input: Omit<CategoryRow, 'id' | 'created_at' | 'updated_at'>,
  ): Promise<CategoryRow> {
    const rows = await sql(
      this.dataSource,
      query<CategoryRow>`INSERT INTO kb_categories (organization_id, site_id, locale, name, slug, description, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, site_id, locale, name, slug, description, position, created_at, updated_at`,
      [
        organizationId,
        input.site_id,
        input.locale,
        input.name,
        input.slug,
        input.description,
        input.position,
      ],
    );
    return rows[0];
  }

  async updateCategory(
    organizationId: string,
    id: string,
    next: Omit<CategoryRow, 'id' | 'site_id' | 'created_at' | 'updated_at'>,
  ): Promise<CategoryRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<CategoryRow>`UPDATE kb_categories SET locale = $3, name = $4, slug = $5, description = $6, position = $7,
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, site_id, locale, name, slug, description, position, created_at, updated_at`,
      [organizationId, id, next.locale, next.name, next.slug, next.description, next.position],
    );
    return rows[0];
  }

  /** Its articles stay, without a category. The category's site, or undefined when none. */
  async deleteCategory(organizationId: string, id: string): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        site_id: string;
      }>`DELETE FROM kb_categories WHERE organization_id = $1 AND id = $2 RETURNING site_id`,
      [organizationId, id],
    );
    return rows[0]?.site_id;
  }

  // Articles ---------------------------------------------------------------------------------

  /** Newest first. */
  articlePage(
    organizationId: string,
    filter: ArticleFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: ArticleSummaryRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<ArticleSummaryRow>`SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
  a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
  a.published_at, a.created_at, a.updated_at FROM kb_articles a JOIN sites s ON s.id = a.site_id
          WHERE a.organization_id = $1 AND ($2::bigint IS NULL OR a.site_id = $2)
          AND ($3::text IS NULL OR a.locale = $3) AND ($4::text IS NULL OR a.status = $4)
          AND ($5::bigint IS NULL OR a.category_id = $5)
          ORDER BY a.id DESC LIMIT $6 OFFSET $7`,
        total: query<{
          total: string;
        }>`SELECT count(*) AS total FROM kb_articles a JOIN sites s ON s.id = a.site_id
          WHERE a.organization_id = $1 AND ($2::bigint IS NULL OR a.site_id = $2)
          AND ($3::text IS NULL OR a.locale = $3) AND ($4::text IS NULL OR a.status = $4)
          AND ($5::bigint IS NULL OR a.category_id = $5)`,
      },
      [
        organizationId,
        filter.siteId ?? null,
        filter.locale ?? null,
        filter.status ?? null,
        filter.categoryId ?? null,
      ],
      page,
    );
  }

  /**
   * Ranked search (DESIGN section 10): weighted full text in the article's language (title A,
   * excerpt B, body C; the last word matches as a prefix, for search as you type) or a title
   * within trigram word-similarity of the words (typos). The rank adds both; the snippet marks
   * the matches with \u0001 and \u0002 (the caller escapes the text, then turns those into marks).
   * With a `locale` the query is built in that language once, so the GIN indexes serve it.
   */
  async search(
    organizationId: string,
    filter: ArticleFilter,
    q: string,
    page: { perPage: number; offset: number },
    /**
     * False: one page and no total (the widget and the help center). Then the full-text hits are
     * looked for first, and the title typos only to fill the page (cheaper: most searches match).
     */
    withTotal = true,
  ): Promise<{ rows: ArticleHitRow[]; total: number }> {
    const words = prefixQuery(q);
    const text = (q.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
    if (!words) return { rows: [], total: 0 };
    const parameters = [
      organizationId,
      filter.siteId ?? null,
      filter.locale ?? null,
      filter.status ?? null,
      filter.categoryId ?? null,
      words,
      text,
    ];
    if (!withTotal) {
      const found = await this.searchPage(filter, 'text', parameters, page);
      if (found.length >= page.perPage) return { rows: found, total: 0 };
      const typos = await this.searchPage(filter, 'typos', parameters, {
        perPage: page.perPage - found.length,
        offset: 0,
      });
      return { rows: [...found, ...typos], total: 0 };
    }
    const [rows, count] = await Promise.all([
      this.searchPage(filter, 'both', parameters, page),
      sql<{ total: string }>(
        this.dataSource,
        `SELECT count(*) AS total FROM (SELECT 1 FROM kb_articles a
           WHERE ${searchWhere(filter, 'both')} LIMIT 1000) AS counted`,
        parameters,
      ),
    ]);
    return { rows, total: Number(count[0].total) };
  }

  /** One page of ranked hits: the ids ranked first, then their columns and snippets. */
  private searchPage(
    filter: ArticleFilter,
    match: 'both' | 'text' | 'typos',
    parameters: unknown[],
    page: { perPage: number; offset: number },
  ): Promise<ArticleHitRow[]> {
    const config = searchConfig(filter);
    const next = parameters.length;
    const typos = 'greatest(word_similarity($7, a.title), similarity($7, a.title)) * 0.5';
    // Title typos alone do not match the text: their rank needs no look at the vector.
    const rank =
      match === 'typos'
        ? typos
        : `ts_rank_cd(a.search_vector, to_tsquery(${config}, $6), 1) + ${typos}`;
    return sql<ArticleHitRow>(
      this.dataSource,
      `WITH ranked AS (
         SELECT a.id, ${rank} AS rank
         FROM kb_articles a WHERE ${searchWhere(filter, match)}
         ORDER BY rank DESC, a.id DESC LIMIT $${next + 1} OFFSET $${next + 2})
       SELECT ${SUMMARY_COLUMNS}, r.rank,
         ts_headline(${config}, left(a.body_text, 1500), to_tsquery(${config}, $6),
           'StartSel=' || chr(1) || ', StopSel=' || chr(2)
           || ', MaxWords=30, MinWords=12, MaxFragments=1') AS snippet
       FROM ranked r JOIN kb_articles a ON a.id = r.id JOIN sites s ON s.id = a.site_id
       ORDER BY r.rank DESC, a.id DESC`,
      [...parameters, page.perPage, page.offset],
    );
  }

  async findArticle(
    organizationId: string,
    id: string,
    executor: SqlExecutor = this.dataSource,
  ): Promise<ArticleRow | undefined> {
    const rows = await sql(
      executor,
      query<ArticleRow>`SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
  a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
  a.published_at, a.created_at, a.updated_at, a.body, a.body_html, a.import_suggestion FROM kb_articles a JOIN sites s ON s.id = a.site_id WHERE a.organization_id = $1 AND a.id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  /** The other articles of an article's translation group (the original and its translations). */
  async translations(
    organizationId: string,
    article: { id: string; translation_of: string | null },
    executor: SqlExecutor = this.dataSource,
    onlyPublished = false,
  ): Promise<TranslationRow[]> {
    const root = article.translation_of ?? article.id;
    return sql(
      executor,
      query<TranslationRow>`SELECT id, locale, title, slug, status FROM kb_articles
       WHERE organization_id = $1 AND (id = $2 OR translation_of = $2) AND id <> $3
         AND (NOT $4::boolean OR status = 'published')
       ORDER BY locale, id`,
      [organizationId, root, article.id, onlyPublished],
    );
  }

  async insertArticle(
    executor: SqlExecutor,
    organizationId: string,
    userId: string | null,
    input: ArticleInput,
  ): Promise<{ id: string }> {
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`INSERT INTO kb_articles (organization_id, site_id, locale, category_id, translation_of,
         title, slug, body, body_html, body_text, excerpt, status, source_url, created_by_user_id,
         published_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
         CASE WHEN $12 = 'published' THEN now() END)
       RETURNING id`,
      [
        organizationId,
        input.site_id,
        input.locale,
        input.category_id,
        input.translation_of,
        input.title,
        input.slug,
        input.body,
        input.body_html,
        input.body_text,
        input.excerpt,
        input.status,
        input.source_url,
        userId,
      ],
    );
    return rows[0];
  }

  /** Writes the whole article; `published_at` is set the first time it is published. */
  async updateArticle(
    executor: SqlExecutor,
    organizationId: string,
    id: string,
    input: Omit<ArticleInput, 'site_id'>,
  ): Promise<boolean> {
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`UPDATE kb_articles SET locale = $3, category_id = $4, translation_of = $5, title = $6,
         slug = $7, body = $8, body_html = $9, body_text = $10, excerpt = $11, status = $12,
         source_url = $13,
         published_at = CASE WHEN $12 = 'published' THEN COALESCE(published_at, now())
           ELSE published_at END,
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [
        organizationId,
        id,
        input.locale,
        input.category_id,
        input.translation_of,
        input.title,
        input.slug,
        input.body,
        input.body_html,
        input.body_text,
        input.excerpt,
        input.status,
        input.source_url,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Its translations stay, each its own original from then on. The article's site, or undefined
   * when there was none.
   */
  async deleteArticle(organizationId: string, id: string): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        site_id: string;
      }>`DELETE FROM kb_articles WHERE organization_id = $1 AND id = $2 RETURNING site_id`,
      [organizationId, id],
    );
    return rows[0]?.site_id;
  }

  /** Locks the article row (changes to one article, and to its translation group, queue up). */
  async lockArticle(executor: SqlExecutor, organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`SELECT id FROM kb_articles WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  // Visitors: views and feedback ----------------------------------------------------------------

  /** Counts a view once per visitor, article and (UTC) day; whether this one counted. */
  async recordView(organizationId: string, articleId: string, visitorId: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ id: string }>`WITH viewed AS (
         INSERT INTO kb_article_views (article_id, visitor_id, organization_id, day)
         VALUES ($2, $3, $1, (now() AT TIME ZONE 'UTC')::date)
         ON CONFLICT DO NOTHING RETURNING article_id)
       UPDATE kb_articles SET views = views + 1
       WHERE organization_id = $1 AND id IN (SELECT article_id FROM viewed) RETURNING id`,
      [organizationId, articleId, visitorId],
    );
    return rows.length > 0;
  }

  /**
   * A visitor's one answer to "Was this helpful?": the counts after it, or undefined when this
   * visitor has answered for this article before.
   */
  async recordFeedback(
    organizationId: string,
    articleId: string,
    visitorId: string,
    helpful: boolean,
  ): Promise<{ helpful: number; not_helpful: number } | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{ helpful: number; not_helpful: number }>`WITH answered AS (
         INSERT INTO kb_article_feedback (article_id, visitor_id, organization_id, helpful)
         VALUES ($2, $3, $1, $4) ON CONFLICT DO NOTHING RETURNING helpful)
       UPDATE kb_articles SET
         helpful = helpful + (SELECT count(*) FROM answered WHERE helpful)::int,
         not_helpful = not_helpful + (SELECT count(*) FROM answered WHERE NOT helpful)::int
       WHERE organization_id = $1 AND id = $2 AND EXISTS (SELECT 1 FROM answered)
       RETURNING helpful, not_helpful`,
      [organizationId, articleId, visitorId, helpful],
    );
    return rows[0];
  }

  // Published content (widget, help center) -------------------------------------------------------

  /** A published article of a site by id. */
  async findPublished(
    organizationId: string,
    siteId: string,
    id: string,
  ): Promise<ArticleRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ArticleRow>`SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
  a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
  a.published_at, a.created_at, a.updated_at, a.body, a.body_html, a.import_suggestion FROM kb_articles a JOIN sites s ON s.id = a.site_id
       WHERE a.organization_id = $1 AND a.site_id = $2 AND a.id = $3 AND a.status = 'published'`,
      [organizationId, siteId, id],
    );
    return rows[0];
  }

  /** The most viewed published articles of a site's locale. */
  popular(
    organizationId: string,
    siteId: string,
    locale: string,
    limit: number,
  ): Promise<ArticleSummaryRow[]> {
    return sql(
      this.dataSource,
      query<ArticleSummaryRow>`SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
  a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
  a.published_at, a.created_at, a.updated_at FROM kb_articles a JOIN sites s ON s.id = a.site_id
       WHERE a.organization_id = $1 AND a.site_id = $2 AND a.locale = $3 AND a.status = 'published'
       ORDER BY a.views DESC, a.id DESC LIMIT $4`,
      [organizationId, siteId, locale, limit],
    );
  }

  // The help center (published articles of one site) -------------------------------------------

  /** A locale's categories with their published articles' count and first few (most viewed). */
  async helpHome(
    organizationId: string,
    siteId: string,
    locale: string,
    perCategory: number,
  ): Promise<{ categories: HelpCategoryRow[]; loose: HelpArticleLink[] }> {
    const [categories, loose] = await Promise.all([
      sql(
        this.dataSource,
        handTyped<HelpCategoryRow>`SELECT c.id, c.name, c.slug, c.description,
           (SELECT count(*)::int FROM kb_articles a
             WHERE a.organization_id = $1 AND a.category_id = c.id AND a.status = 'published')
             AS article_count,
           coalesce((SELECT json_agg(json_build_object('title', t.title, 'slug', t.slug,
               'excerpt', t.excerpt) ORDER BY t.views DESC, t.id)
             FROM (SELECT a.title, a.slug, a.excerpt, a.views, a.id FROM kb_articles a
               WHERE a.organization_id = $1 AND a.category_id = c.id AND a.status = 'published'
               ORDER BY a.views DESC, a.id LIMIT $4) t), '[]'::json) AS articles
         FROM kb_categories c
         WHERE c.organization_id = $1 AND c.site_id = $2 AND c.locale = $3
         ORDER BY c.position, c.name, c.id`,
        [organizationId, siteId, locale, perCategory],
      ),
      sql(
        this.dataSource,
        query<HelpArticleLink>`SELECT a.title, a.slug, a.excerpt FROM kb_articles a
         WHERE a.organization_id = $1 AND a.site_id = $2 AND a.locale = $3
           AND a.status = 'published' AND a.category_id IS NULL
         ORDER BY a.views DESC, a.id LIMIT $4`,
        [organizationId, siteId, locale, perCategory * 2],
      ),
    ]);
    return { categories: categories.filter((c) => c.article_count > 0), loose };
  }

  /** A category by slug with its published articles (by title, at most `limit`). */
  async helpCategory(
    organizationId: string,
    siteId: string,
    locale: string,
    slug: string,
    limit: number,
  ): Promise<{ category: HelpCategoryRow; articles: HelpArticleLink[] } | undefined> {
    const [category] = await sql(
      this.dataSource,
      handTyped<HelpCategoryRow>`SELECT c.id, c.name, c.slug, c.description, 0 AS article_count, '[]'::json AS articles
       FROM kb_categories c
       WHERE c.organization_id = $1 AND c.site_id = $2 AND c.locale = $3 AND c.slug = $4`,
      [organizationId, siteId, locale, slug],
    );
    if (!category) return undefined;
    const articles = await sql(
      this.dataSource,
      query<HelpArticleLink>`SELECT a.title, a.slug, a.excerpt FROM kb_articles a
       WHERE a.organization_id = $1 AND a.category_id = $2 AND a.status = 'published'
       ORDER BY a.title, a.id LIMIT $3`,
      [organizationId, category.id, limit],
    );
    return { category, articles };
  }

  /**
   * A published article by slug, with its category and its published translations (for the
   * page's `hreflang` links), in one statement.
   */
  async helpArticle(
    organizationId: string,
    siteId: string,
    locale: string,
    slug: string,
  ): Promise<HelpArticleRow | undefined> {
    const rows = await sql(
      this.dataSource,
      HELP_ARTICLE_SQL,
      [organizationId, siteId, locale, slug],
      'kb_help_article',
    );
    return rows[0];
  }

  /** Every published article and non-empty category of a site, for its sitemap. */
  async helpSitemap(
    organizationId: string,
    siteId: string,
    limit: number,
  ): Promise<{ locale: string; kind: 'article' | 'category'; slug: string; updated_at: Date }[]> {
    return sql(
      this.dataSource,
      handTyped<{
        locale: string;
        kind: 'article' | 'category';
        slug: string;
        updated_at: Date;
      }>`(SELECT a.locale, 'article' AS kind, a.slug, a.updated_at FROM kb_articles a
         WHERE a.organization_id = $1 AND a.site_id = $2 AND a.status = 'published'
         ORDER BY a.locale, a.id LIMIT $3)
       UNION ALL
       (SELECT c.locale, 'category' AS kind, c.slug, c.updated_at FROM kb_categories c
         WHERE c.organization_id = $1 AND c.site_id = $2 AND EXISTS (
           SELECT 1 FROM kb_articles a WHERE a.organization_id = $1 AND a.category_id = c.id
             AND a.status = 'published'))`,
      [organizationId, siteId, limit],
    );
  }

  // Content import (DESIGN section 11) ----------------------------------------------------------

  /** The article an import wrote from this page before, locked for the import's transaction. */
  async findImported(
    executor: SqlExecutor,
    organizationId: string,
    siteId: string,
    sourceUrl: string,
  ): Promise<ImportedArticleRow | undefined> {
    const rows = await sql(
      executor,
      query<ImportedArticleRow>`SELECT id, body, imported_hash FROM kb_articles
       WHERE organization_id = $1 AND site_id = $2 AND source_url = $3
       ORDER BY id LIMIT 1 FOR UPDATE`,
      [organizationId, siteId, sourceUrl],
    );
    return rows[0];
  }

  /** The slugs of a site and locale starting with `base` (to pick a free one). */
  async slugsLike(
    executor: SqlExecutor,
    organizationId: string,
    siteId: string,
    locale: string,
    base: string,
  ): Promise<Set<string>> {
    const rows = await sql(
      executor,
      query<{
        slug: string;
      }>`SELECT slug FROM kb_articles WHERE organization_id = $1 AND site_id = $2 AND locale = $3
         AND (slug = $4 OR slug LIKE $5)`,
      [organizationId, siteId, locale, base, `${escapeLike(base)}-%`],
    );
    return new Set(rows.map((row) => row.slug));
  }

  /** What the import wrote (its hash), or the text it found for an edited article. */
  async recordImport(
    executor: SqlExecutor,
    organizationId: string,
    id: string,
    change: { importedHash: string } | { suggestion: string },
  ): Promise<void> {
    await sql(
      executor,
      'importedHash' in change
        ? query`UPDATE kb_articles SET imported_hash = $3, import_suggestion = NULL
           WHERE organization_id = $1 AND id = $2`
        : query`UPDATE kb_articles SET import_suggestion = $3 WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, 'importedHash' in change ? change.importedHash : change.suggestion],
    );
  }

  /**
   * Published articles of a site that answer a visitor's question (the answer bot, DESIGN
   * section 11): any of its words in the article's language, ranked by cover density (0..1), or
   * the title by trigram similarity; with the passage that matched.
   */
  /**
   * Published articles answering a visitor's question, best first, with a passage: as the bot
   * replies' `best`, the text matches ranked by the index, the title's likeness added for the
   * best few, title typos only when no word matched, and the passage cut for the answer only.
   */
  async answersFor(
    organizationId: string,
    siteId: string,
    locale: string,
    text: string,
    limit: number,
  ): Promise<(ArticleSummaryRow & { score: number; passage: string })[]> {
    const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 30);
    const query = words.join(' | ') || 'x';
    const found = await sql(
      this.dataSource,
      handTyped<ArticleSummaryRow & { score: number; passage: string }>`WITH hits AS (
         SELECT a.id, ts_rank_cd(a.search_vector, to_tsquery(kb_search_config($3), $4), 32) AS rank
         FROM kb_articles a
         WHERE a.organization_id = $1 AND a.site_id = $2 AND a.locale = $3 AND a.status = 'published'
           AND a.search_vector @@ to_tsquery(kb_search_config($3), $4)
         ORDER BY rank DESC, a.id LIMIT $6),
       best AS (
         SELECT h.id, greatest(h.rank, similarity(a.title, $5))::float8 AS score
         FROM hits h JOIN kb_articles a ON a.id = h.id
         ORDER BY score DESC, h.id LIMIT $7)
       SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
         a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
         a.published_at, a.created_at, a.updated_at, b.score,
         ts_headline(kb_search_config($3), a.body_text, to_tsquery(kb_search_config($3), $4),
           'StartSel="", StopSel="", MaxWords=60, MinWords=25, MaxFragments=1') AS passage
       FROM best b JOIN kb_articles a ON a.id = b.id JOIN sites s ON s.id = a.site_id
       ORDER BY b.score DESC, a.id`,
      [organizationId, siteId, locale, query, text, ANSWER_CANDIDATES, limit],
    );
    if (found.length > 0) return found;
    return sql(
      this.dataSource,
      handTyped<
        ArticleSummaryRow & { score: number; passage: string }
      >`SELECT a.id, a.site_id, s.widget_key, a.locale, a.category_id, a.translation_of,
         a.title, a.slug, a.excerpt, a.status, a.views, a.helpful, a.not_helpful, a.source_url,
         a.published_at, a.created_at, a.updated_at, similarity(a.title, $5)::float8 AS score,
         ts_headline(kb_search_config($3), a.body_text, to_tsquery(kb_search_config($3), $4),
           'StartSel="", StopSel="", MaxWords=60, MinWords=25, MaxFragments=1') AS passage
       FROM kb_articles a JOIN sites s ON s.id = a.site_id
       WHERE a.organization_id = $1 AND a.site_id = $2 AND a.locale = $3 AND a.status = 'published'
         AND a.title % $5
       ORDER BY score DESC, a.id LIMIT $6`,
      [organizationId, siteId, locale, query, text, limit],
    );
  }
}

export interface HelpArticleLink {
  title: string;
  slug: string;
  excerpt: string | null;
}

export interface HelpCategoryRow {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  article_count: number;
  articles: HelpArticleLink[];
}

export interface HelpArticleRow {
  id: string;
  locale: string;
  title: string;
  slug: string;
  excerpt: string | null;
  body_html: string;
  /** The first words of the body, for the page's description when there is no excerpt. */
  summary: string;
  published_at: Date | null;
  updated_at: Date;
  category_name: string | null;
  category_slug: string | null;
  /** Published articles of its translation group in other locales. */
  translations: { locale: string; slug: string; title: string }[];
}

/** Exported for the benchmark's baseline, which must read the same rows the same way. */
export const HELP_ARTICLE_SQL = handTyped<HelpArticleRow>`SELECT a.id, a.locale, a.title, a.slug, a.excerpt, a.body_html,
   left(a.body_text, 300) AS summary, a.published_at, a.updated_at,
   c.name AS category_name, c.slug AS category_slug,
   coalesce((SELECT json_agg(json_build_object('locale', t.locale, 'slug', t.slug,
       'title', t.title) ORDER BY t.locale)
     FROM kb_articles t
     WHERE t.organization_id = $1 AND t.status = 'published' AND t.id <> a.id
       AND (t.id = coalesce(a.translation_of, a.id)
         OR t.translation_of = coalesce(a.translation_of, a.id))), '[]'::json) AS translations
 FROM kb_articles a LEFT JOIN kb_categories c ON c.id = a.category_id
 WHERE a.organization_id = $1 AND a.site_id = $2 AND a.locale = $3 AND a.slug = $4
   AND a.status = 'published'`;
