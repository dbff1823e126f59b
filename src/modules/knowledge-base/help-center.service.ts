import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SiteCache } from '../../common/invalidation/site-cache';
import { AppConfig } from '../../config/app-config';
import {
  HELP_CENTER_LOCALES,
  type HelpCenterLocale,
  helpCenterWithDefaults,
} from '../sites/help-center-settings';
import { SitesService } from '../sites/sites.service';
import { withDefaults } from '../sites/widget-settings';
import {
  articlePage,
  categoryPage,
  homePage,
  type HelpSite,
  loaderStyleHash,
  notFoundPage,
  type Page,
  type RenderContext,
  searchPage,
  sitemapXml,
} from './help-center.pages';
import { snippetHtml } from './knowledge-base.dto';
import { KnowledgeBaseRepository } from './knowledge-base.repository';
import { KnowledgeBaseSearch } from './knowledge-base.search';

const PER_CATEGORY = 6;
const CATEGORY_LIMIT = 500;
const SEARCH_RESULTS = 10;
const SITEMAP_LIMIT = 50_000;

/** The help center of a site (DESIGN section 10): server-rendered pages of published articles. */
@Injectable()
export class HelpCenterService {
  constructor(
    private readonly sites: SitesService,
    private readonly repository: KnowledgeBaseRepository,
    private readonly config: AppConfig,
    private readonly cache: SiteCache,
    private readonly articles: KnowledgeBaseSearch,
  ) {}

  nonce(): string {
    return randomBytes(16).toString('base64');
  }

  /**
   * The active site of a widget key whose help center is on, as the pages describe it (kept in
   * memory until the site changes: `SiteCache`).
   */
  site(widgetKey: string): Promise<HelpCenterSite | undefined> {
    if (!/^wk_[A-Za-z0-9]{1,64}$/.test(widgetKey)) return Promise.resolve(undefined);
    return this.cache.get(
      `help-site\u0000${widgetKey}`,
      async () => {
        const row = await this.sites.findActiveByWidgetKey(widgetKey);
        if (!row) return undefined;
        const settings = helpCenterWithDefaults(row.helpCenter);
        if (!settings.enabled) return undefined;
        return {
          organizationId: row.organizationId,
          siteId: row.id,
          help: {
            publicUrl: this.config.publicUrl,
            widgetKey: row.widgetKey,
            siteName: row.name,
            title: settings.title ?? row.name,
            color: withDefaults(row.widgetSettings).appearance.color,
            locales: settings.locales,
            defaultLocale: settings.default_locale,
          },
        };
      },
      (site) => site.siteId,
    );
  }

  /** What the site's pages show of its knowledge base, kept in memory until it changes. */
  private kept<T>(site: HelpCenterSite, key: string, load: () => Promise<T | undefined>) {
    return this.cache.get(`${key}\u0000${site.siteId}`, load, () => site.siteId);
  }

  private context(help: HelpSite, locale: string, nonce: string): RenderContext | undefined {
    if (!(HELP_CENTER_LOCALES as readonly string[]).includes(locale)) return undefined;
    if (!(help.locales as readonly string[]).includes(locale)) return undefined;
    return {
      site: help,
      locale: locale as HelpCenterLocale,
      nonce,
      loaderStyleHash: loaderStyleHash(),
    };
  }

  notFound(site: HelpSite | undefined, locale: string | undefined, nonce: string): Page {
    const ctx =
      site &&
      (locale ? this.context(site, locale, nonce) : this.context(site, site.defaultLocale, nonce));
    return notFoundPage(ctx, this.config.publicUrl, nonce);
  }

  async home(key: string, locale: string, nonce: string): Promise<Page | undefined> {
    const site = await this.site(key);
    const ctx = site && this.context(site.help, locale, nonce);
    if (!site || !ctx) return undefined;
    const content = await this.kept(site, `home\u0000${locale}`, () =>
      this.repository.helpHome(site.organizationId, site.siteId, locale, PER_CATEGORY),
    );
    return content && homePage(ctx, content);
  }

  async category(key: string, locale: string, slug: string, nonce: string) {
    const site = await this.site(key);
    const ctx = site && this.context(site.help, locale, nonce);
    if (!site || !ctx) return undefined;
    const content = await this.kept(site, `category\u0000${locale}\u0000${slug}`, () =>
      this.repository.helpCategory(site.organizationId, site.siteId, locale, slug, CATEGORY_LIMIT),
    );
    if (!content || content.articles.length === 0) return undefined;
    return categoryPage(ctx, content);
  }

  async article(key: string, locale: string, slug: string, nonce: string) {
    const site = await this.site(key);
    const ctx = site && this.context(site.help, locale, nonce);
    if (!site || !ctx) return undefined;
    const article = await this.kept(site, `article\u0000${locale}\u0000${slug}`, () =>
      this.repository.helpArticle(site.organizationId, site.siteId, locale, slug),
    );
    return article && articlePage(ctx, article);
  }

  async search(key: string, locale: string, q: string, nonce: string) {
    const site = await this.site(key);
    const ctx = site && this.context(site.help, locale, nonce);
    if (!site || !ctx) return undefined;
    const query = q.trim().slice(0, 200);
    const rows = query ? await this.articles.published(site, locale, query, SEARCH_RESULTS) : [];
    return searchPage(
      ctx,
      query,
      rows.map((row) => ({ title: row.title, slug: row.slug, snippet: snippetHtml(row.snippet) })),
    );
  }

  async sitemap(key: string): Promise<string | undefined> {
    const site = await this.site(key);
    if (!site) return undefined;
    const entries = await this.repository.helpSitemap(
      site.organizationId,
      site.siteId,
      SITEMAP_LIMIT,
    );
    return sitemapXml(site.help, entries);
  }
}

/** What a help center's pages need of its site. */
export interface HelpCenterSite {
  organizationId: string;
  siteId: string;
  help: HelpSite;
}
