import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { SiteCache } from '../../common/invalidation/site-cache';
import { AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/sql';
import { OutboxService } from '../outbox/outbox.service';
import { helpCenterWithDefaults } from '../sites/help-center-settings';
import { SitesService } from '../sites/sites.service';
import { knowledgeBaseEvents } from './knowledge-base-events';
import {
  type ArticleFilter,
  type ArticleInput,
  type ArticleRow,
  type ArticleStatus,
  type CategoryRow,
  KnowledgeBaseRepository,
  type TranslationRow,
} from './knowledge-base.repository';
import { markdownToText, renderMarkdown } from './markdown';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const SLUG_TAKEN = 'Another article of this site and locale already uses this slug.';
const CATEGORY_SLUG_TAKEN = 'Another category of this site and locale already uses this slug.';

/** A slug from a title: lower-case letters and digits (any script) joined by dashes. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+/, '')
    .slice(0, 120)
    .replace(/-+$/, '');
  return slug || 'article';
}

/** An article's public help-center address. */
export function articleUrl(
  publicUrl: string,
  article: { widget_key: string; locale: string; slug: string },
): string {
  return `${publicUrl}/help/${encodeURIComponent(article.widget_key)}/${article.locale}/articles/${encodeURIComponent(article.slug)}`;
}

export interface ArticleWrite {
  site_id?: number;
  locale?: string;
  title?: string;
  slug?: string;
  body?: string;
  excerpt?: string | null;
  category_id?: number | null;
  status?: ArticleStatus;
  translation_of?: number | null;
  source_url?: string | null;
}

export interface CategoryWrite {
  site_id?: number;
  locale?: string;
  name?: string;
  slug?: string;
  description?: string | null;
  position?: number;
}

/** Articles and categories of the knowledge base (DESIGN section 10): the agent and public API. */
@Injectable()
export class KnowledgeBaseService {
  constructor(
    private readonly repository: KnowledgeBaseRepository,
    private readonly sites: SitesService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly cache: SiteCache,
  ) {}

  url(article: { widget_key: string; locale: string; slug: string }): string {
    return articleUrl(this.config.publicUrl, article);
  }

  /** A site of the organization named in a body: 422 naming `site_id` otherwise. */
  private async siteOf(organizationId: string, siteId: number) {
    try {
      return await this.sites.get(organizationId, String(siteId));
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw AppError.invalid(
          'site_id',
          'The site_id must be a site of your organization.',
          'site_not_in_organization',
        );
      }
      throw error;
    }
  }

  // Categories -----------------------------------------------------------------------------------

  categoryPage(
    organizationId: string,
    filter: { siteId?: string; locale?: string },
    page: { perPage: number; offset: number },
  ) {
    return this.repository.categoryPage(organizationId, filter, page);
  }

  async createCategory(organizationId: string, input: CategoryWrite): Promise<CategoryRow> {
    // Required on create (the DTO inherits the update's optional fields, so checked here).
    if (!input.name?.trim())
      throw AppError.invalid('name', 'The name field is required.', 'required');
    const site = await this.siteOf(organizationId, input.site_id!);
    const name = input.name;
    try {
      const row = await this.repository.insertCategory(organizationId, {
        site_id: site.id,
        locale: input.locale ?? helpCenterWithDefaults(site.helpCenter).default_locale,
        name,
        slug: input.slug ?? slugify(name),
        description: input.description ?? null,
        position: input.position ?? 0,
      });
      await this.articlesChanged(row.site_id);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(CATEGORY_SLUG_TAKEN, 'slug_taken');
      throw error;
    }
  }

  async updateCategory(
    organizationId: string,
    id: string,
    input: CategoryWrite,
  ): Promise<CategoryRow> {
    const current = await this.repository.findCategory(organizationId, id);
    if (!current) throw AppError.notFound();
    try {
      const row = await this.repository.updateCategory(organizationId, id, {
        locale: input.locale ?? current.locale,
        name: input.name ?? current.name,
        slug: input.slug ?? current.slug,
        description: input.description === undefined ? current.description : input.description,
        position: input.position ?? current.position,
      });
      if (!row) throw AppError.notFound();
      await this.articlesChanged(row.site_id);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(CATEGORY_SLUG_TAKEN, 'slug_taken');
      throw error;
    }
  }

  async removeCategory(organizationId: string, id: string): Promise<void> {
    const siteId = await this.repository.deleteCategory(organizationId, id);
    if (!siteId) throw AppError.notFound();
    await this.articlesChanged(siteId);
  }

  // Articles -------------------------------------------------------------------------------------

  articlePage(
    organizationId: string,
    filter: ArticleFilter,
    page: { perPage: number; offset: number },
  ) {
    return this.repository.articlePage(organizationId, filter, page);
  }

  async article(
    organizationId: string,
    id: string,
  ): Promise<{ article: ArticleRow; translations: TranslationRow[] }> {
    const article = await this.repository.findArticle(organizationId, id);
    if (!article) throw AppError.notFound();
    const translations = await this.repository.translations(organizationId, article);
    return { article, translations };
  }

  async createArticle(
    organizationId: string,
    userId: string | null,
    input: ArticleWrite,
  ): Promise<ArticleRow> {
    // Required on create (the DTO inherits the update's optional fields, so checked here).
    if (!input.title?.trim())
      throw AppError.invalid('title', 'The title field is required.', 'required');
    const site = await this.siteOf(organizationId, input.site_id!);
    const locale = input.locale ?? helpCenterWithDefaults(site.helpCenter).default_locale;
    const title = input.title;
    const body = input.body ?? '';
    const next: ArticleInput = {
      site_id: site.id,
      locale,
      category_id: input.category_id == null ? null : String(input.category_id),
      translation_of: input.translation_of == null ? null : String(input.translation_of),
      title,
      slug: input.slug ?? slugify(title),
      body,
      body_html: renderMarkdown(body),
      body_text: markdownToText(body),
      excerpt: input.excerpt ?? null,
      status: input.status ?? 'draft',
      source_url: input.source_url ?? null,
    };
    const saved = await this.write(organizationId, undefined, next, userId);
    await this.articlesChanged(saved.site_id);
    return saved;
  }

  async updateArticle(organizationId: string, id: string, input: ArticleWrite) {
    const saved = await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.lockArticle(manager, organizationId, id))) {
        throw AppError.notFound();
      }
      const current = (await this.repository.findArticle(organizationId, id, manager))!;
      const body = input.body ?? current.body;
      const next: ArticleInput = {
        site_id: current.site_id,
        locale: input.locale ?? current.locale,
        category_id:
          input.category_id === undefined
            ? current.category_id
            : input.category_id === null
              ? null
              : String(input.category_id),
        translation_of:
          input.translation_of === undefined
            ? current.translation_of
            : input.translation_of === null
              ? null
              : String(input.translation_of),
        title: input.title ?? current.title,
        slug: input.slug ?? current.slug,
        body,
        body_html: input.body === undefined ? current.body_html : renderMarkdown(body),
        body_text: markdownToText(body),
        excerpt: input.excerpt === undefined ? current.excerpt : input.excerpt,
        status: input.status ?? current.status,
        source_url: input.source_url === undefined ? current.source_url : input.source_url,
      };
      return this.write(organizationId, current, next, null, manager);
    });
    await this.articlesChanged(saved.site_id);
    return saved;
  }

  async removeArticle(organizationId: string, id: string): Promise<void> {
    const siteId = await this.repository.deleteArticle(organizationId, id);
    if (!siteId) throw AppError.notFound();
    await this.articlesChanged(siteId);
  }

  /**
   * A site's articles or categories changed and the change committed: what every instance keeps
   * of that site's help center and visitors' searches goes (SiteCache).
   */
  articlesChanged(siteId: string): Promise<void> {
    return this.cache.changed(siteId);
  }

  /**
   * An article read from the owner's website by a content import (DESIGN section 11), in the
   * import's transaction: a new page becomes an article (a draft unless `publish`), a changed
   * page updates the article the import wrote before, and an article an agent has edited since
   * is left alone, the new text kept as its `import_suggestion`.
   */
  async importPage(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    page: { sourceUrl: string; title: string; markdown: string; excerpt: string; publish: boolean },
  ): Promise<{ outcome: 'created' | 'updated' | 'suggested' | 'unchanged'; id: string }> {
    const hash = sha256(page.markdown);
    const existing = await this.repository.findImported(
      manager,
      organizationId,
      siteId,
      page.sourceUrl,
    );
    if (existing && existing.imported_hash === hash)
      return { outcome: 'unchanged', id: existing.id };
    // Written here (no import hash) or edited since the import wrote it: the agent's text stays.
    if (
      existing &&
      (existing.imported_hash === null || sha256(existing.body) !== existing.imported_hash)
    ) {
      await this.repository.recordImport(manager, organizationId, existing.id, {
        suggestion: page.markdown,
      });
      return { outcome: 'suggested', id: existing.id };
    }
    const excerpt = page.excerpt.slice(0, 300) || null;
    let saved: ArticleRow;
    if (existing) {
      const current = (await this.repository.findArticle(organizationId, existing.id, manager))!;
      saved = await this.write(
        organizationId,
        current,
        {
          ...current,
          title: page.title,
          body: page.markdown,
          body_html: renderMarkdown(page.markdown),
          body_text: markdownToText(page.markdown),
          excerpt,
        },
        null,
        manager,
      );
    } else {
      const site = await this.sites.get(organizationId, siteId);
      const locale = helpCenterWithDefaults(site.helpCenter).default_locale;
      const base = slugify(page.title);
      const taken = await this.repository.slugsLike(manager, organizationId, siteId, locale, base);
      let slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
      saved = await this.write(
        organizationId,
        undefined,
        {
          site_id: siteId,
          locale,
          category_id: null,
          translation_of: null,
          title: page.title,
          slug,
          body: page.markdown,
          body_html: renderMarkdown(page.markdown),
          body_text: markdownToText(page.markdown),
          excerpt,
          status: page.publish ? 'published' : 'draft',
          source_url: page.sourceUrl,
        },
        null,
        manager,
      );
    }
    await this.repository.recordImport(manager, organizationId, saved.id, { importedHash: hash });
    return { outcome: existing ? 'updated' : 'created', id: saved.id };
  }

  /**
   * Checks the links of an article (category, translation), writes it and, when it becomes
   * published, records `kb.article_published` in the same transaction.
   */
  private async write(
    organizationId: string,
    current: ArticleRow | undefined,
    next: ArticleInput,
    userId: string | null,
    manager?: EntityManager,
  ): Promise<ArticleRow> {
    if (!manager) {
      return this.dataSource.transaction((inner) =>
        this.write(organizationId, current, next, userId, inner),
      );
    }
    if (next.category_id !== null) {
      const category = await this.repository.findCategory(
        organizationId,
        next.category_id,
        manager,
      );
      if (!category || category.site_id !== next.site_id || category.locale !== next.locale) {
        throw AppError.invalid(
          'category_id',
          'The category_id must be a category of the same site and locale.',
          'category_not_in_site',
        );
      }
    }
    if (next.translation_of !== null) {
      next.translation_of = await this.translationRoot(organizationId, current, next, manager);
    }
    let id: string;
    try {
      if (current) {
        await this.repository.updateArticle(manager, organizationId, current.id, next);
        id = current.id;
      } else {
        ({ id } = await this.repository.insertArticle(manager, organizationId, userId, next));
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(SLUG_TAKEN, 'slug_taken');
      throw error;
    }
    const saved = (await this.repository.findArticle(organizationId, id, manager))!;
    if (saved.status === 'published' && current?.status !== 'published') {
      await this.outbox.publish(
        manager,
        knowledgeBaseEvents.published(organizationId, saved, this.url(saved)),
      );
    }
    return saved;
  }

  /**
   * `translation_of` names an article of the same site in another locale; the link is kept to
   * the group's original (a translation of a translation joins the same group), and a group has
   * one article per locale. A 422 naming `translation_of` otherwise.
   */
  private async translationRoot(
    organizationId: string,
    current: ArticleRow | undefined,
    next: ArticleInput,
    manager: EntityManager,
  ): Promise<string> {
    const invalid = (message: string) =>
      AppError.invalid('translation_of', message, 'translation_invalid');
    const target = await this.repository.findArticle(organizationId, next.translation_of!, manager);
    if (!target || target.site_id !== next.site_id) {
      throw invalid('The translation_of must be an article of the same site.');
    }
    const root = target.translation_of ?? target.id;
    if (current && (root === current.id || target.id === current.id)) {
      throw invalid('An article cannot be a translation of itself.');
    }
    if (current && current.translation_of === null) {
      const own = await this.repository.translations(organizationId, current, manager);
      if (own.length > 0) {
        throw invalid('This article has translations of its own; link those instead.');
      }
    }
    const group = [
      { id: root, locale: '' },
      ...(await this.repository.translations(
        organizationId,
        { id: root, translation_of: null },
        manager,
      )),
    ];
    const rootRow =
      root === target.id
        ? target
        : await this.repository.findArticle(organizationId, root, manager);
    const locales = group
      .map((member) => (member.id === root ? rootRow?.locale : member.locale))
      .filter((_, index) => group[index].id !== current?.id);
    if (locales.includes(next.locale)) {
      throw invalid('The translation_of must be an article in another locale than this one.');
    }
    return root;
  }
}
