import { createHash } from 'node:crypto';
import type { HelpCenterLocale } from '../sites/help-center-settings';
import { builtFile, webPaths } from '../web/web-assets';
import {
  fill,
  HELP_CENTER_MESSAGES,
  type HelpCenterMessages,
  RTL_LOCALES,
} from './help-center.messages';
import type { HelpArticleLink, HelpArticleRow, HelpCategoryRow } from './knowledge-base.repository';

/**
 * The help center's pages (DESIGN section 10): plain functions from rows to HTML, complete
 * without JavaScript, so the service and the benchmark's baseline render the same bytes. Every
 * text of a row is escaped here; article bodies are the server-rendered Markdown (raw HTML off).
 */

export interface HelpSite {
  /** `PUBLIC_URL`: the base of canonical and alternate links and of the widget loader. */
  publicUrl: string;
  widgetKey: string;
  siteName: string;
  /** The help center's title (its setting, else the site's name). */
  title: string;
  color: string;
  locales: readonly HelpCenterLocale[];
  defaultLocale: HelpCenterLocale;
}

export interface Page {
  html: string;
  /** The `Content-Security-Policy` header the page needs (its nonce, its style hashes). */
  policy: string;
}

let loaderHash: string | null | undefined;

/**
 * The CSP hash of the launcher's stylesheet, which the widget loader puts in its shadow root: read
 * from the built loader (the text between `<style>` and `</style>` of its template), once.
 * Null when the loader is not built or its stylesheet cannot be found as plain text.
 */
export function loaderStyleHash(): string | undefined {
  if (loaderHash === undefined) {
    const script = builtFile(webPaths.loader);
    const match = script && /<style>([^`$\\]*?)<\/style>/.exec(script);
    loaderHash = match
      ? `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`
      : null;
  }
  return loaderHash ?? undefined;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Only a 3- or 6-digit hex colour reaches the stylesheet; anything else is the default blue. */
const safeColor = (color: string): string =>
  /^#(?:[0-9a-f]{3}){1,2}$/i.test(color) ? color : '#2563eb';

/** Black or white text on the brand colour, whichever contrasts more (WCAG luminance). */
function textOn(color: string): string {
  let hex = color.slice(1);
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const channel = (i: number) => {
    const value = parseInt(hex.slice(i, i + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#111827';
}

const CSS = `*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}
a{color:#1d4ed8}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #111827;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:8px 12px;z-index:9}
.skip:focus{left:8px}
.wrap{max-width:60rem;margin:0 auto;padding:0 1rem}
.top{background:var(--brand);color:var(--on-brand);padding:1rem 0 2rem}
.top a{color:var(--on-brand)}
.bar{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.brand{font-weight:700;font-size:1.15rem;text-decoration:none}
.langs ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;list-style:none;margin:0;padding:0;font-size:.95rem}
.langs [aria-current]{font-weight:700;text-decoration:none}
.search{margin-top:1.5rem}
.search label{display:block;font-size:1.5rem;font-weight:700;margin-bottom:.5rem}
.search div{display:flex;gap:.5rem}
.search input{flex:1;min-width:0;font:inherit;padding:.65rem .8rem;border:1px solid #cbd5e1;border-radius:8px;color:#111827;background:#fff}
.search button{font:inherit;font-weight:600;padding:.65rem 1rem;border:2px solid var(--on-brand);border-radius:8px;background:transparent;color:var(--on-brand);cursor:pointer}
main{padding:1.5rem 0 2rem}
h1{font-size:1.75rem;line-height:1.25;margin:.25rem 0 .5rem}
h2{font-size:1.2rem;margin:0 0 .5rem}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));padding:0;list-style:none}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:1rem 1.1rem}
.card h3{margin:0 0 .25rem;font-size:1.1rem}
.card p{margin:.25rem 0;color:#475569}
.list{list-style:none;padding:0;margin:.5rem 0}
.list li{padding:.35rem 0;border-bottom:1px solid #e2e8f0}
.list li:last-child{border-bottom:0}
.list p{margin:.1rem 0 0;color:#475569;font-size:.95rem}
.muted{color:#475569;font-size:.95rem}
.crumbs ol{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;padding:0;margin:0 0 .5rem;font-size:.95rem}
.crumbs li+li::before{content:"›";margin-inline-end:.25rem;color:#64748b}
.content{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:1rem 1.25rem;overflow-wrap:anywhere}
.content img{max-width:100%;height:auto}
.content pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f1f5f9;padding:.75rem;border-radius:8px}
.content table{border-collapse:collapse;max-width:100%}
.content td,.content th{border:1px solid #cbd5e1;padding:.3rem .5rem;overflow-wrap:anywhere}
mark{background:#fef08a;color:inherit}
.help{margin:0 auto 2rem}
.help div{background:#fff;border:1px solid #e2e8f0;border-inline-start:4px solid var(--brand);border-radius:12px;padding:1rem 1.25rem}
.help p{margin:.25rem 0 0}
footer{padding:1rem 0 6rem;color:#475569;font-size:.9rem}
@media (max-width:480px){h1{font-size:1.45rem}.search label{font-size:1.25rem}}`;

const styles = new Map<string, { css: string; hash: string }>();

/** The page's one stylesheet (the brand colour in it) and its CSP hash, made once per colour. */
function styleFor(color: string): { css: string; hash: string } {
  let style = styles.get(color);
  if (!style) {
    const css = `:root{--brand:${color};--on-brand:${textOn(color)}}\n${CSS}`;
    style = { css, hash: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
    styles.set(color, style);
  }
  return style;
}

/**
 * The strict policy of a help-center page: no script but the widget loader (by nonce), no style
 * but the page's own and the launcher's (by hash); the chat frame and its calls to the service.
 */
export function helpCenterPolicy(publicUrl: string, nonce: string, styleHashes: string[]): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${styleHashes.join(' ')}`,
    "img-src 'self' https: data:",
    `connect-src ${origin}`,
    `frame-src ${origin}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const helpBase = (site: Pick<HelpSite, 'publicUrl' | 'widgetKey'>): string =>
  `${site.publicUrl}/help/${encodeURIComponent(site.widgetKey)}`;
const homeUrl = (site: HelpSite, locale: string) => `${helpBase(site)}/${locale}/`;
const articleHref = (site: HelpSite, locale: string, slug: string) =>
  `${helpBase(site)}/${locale}/articles/${encodeURIComponent(slug)}`;
const categoryHref = (site: HelpSite, locale: string, slug: string) =>
  `${helpBase(site)}/${locale}/categories/${encodeURIComponent(slug)}`;

interface Layout {
  site: HelpSite;
  locale: HelpCenterLocale;
  title: string;
  description: string;
  canonical: string;
  /** The page in each language it exists in (this one included): hreflang links. */
  alternates: { locale: string; href: string }[];
  /** The page for visitors whose language is none of them. */
  xDefault: string;
  body: string;
  query?: string;
  noindex?: boolean;
  /** The launcher's style hash, when the loader is built. */
  loaderStyleHash?: string;
  nonce: string;
}

function layout(page: Layout): Page {
  const { site, locale } = page;
  const t = HELP_CENTER_MESSAGES[locale];
  const style = styleFor(safeColor(page.site.color));
  const dir = RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
  const alternates = page.alternates
    .map((alt) => `<link rel="alternate" hreflang="${alt.locale}" href="${escapeHtml(alt.href)}">`)
    .join('\n');
  const languages =
    site.locales.length > 1
      ? `<nav class="langs" aria-label="${escapeHtml(t.languages)}"><ul>${site.locales
          .map((code) => {
            const alt = page.alternates.find((a) => a.locale === code);
            const href = alt?.href ?? homeUrl(site, code);
            const name = escapeHtml(HELP_CENTER_MESSAGES[code].language);
            return code === locale
              ? `<li><a href="${escapeHtml(href)}" lang="${code}" aria-current="true">${name}</a></li>`
              : `<li><a href="${escapeHtml(href)}" lang="${code}" hreflang="${code}">${name}</a></li>`;
          })
          .join('')}</ul></nav>`
      : '';
  const hashes = [style.hash, ...(page.loaderStyleHash ? [page.loaderStyleHash] : [])];
  const html = `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
${page.noindex ? '<meta name="robots" content="noindex">\n' : ''}<link rel="canonical" href="${escapeHtml(page.canonical)}">
${alternates}
<link rel="alternate" hreflang="x-default" href="${escapeHtml(page.xDefault)}">
<style>${style.css}</style>
</head>
<body>
<a class="skip" href="#main">${escapeHtml(t.skip)}</a>
<header class="top">
<div class="wrap">
<div class="bar"><a class="brand" href="${escapeHtml(homeUrl(site, locale))}">${escapeHtml(site.title)}</a>${languages}</div>
<form class="search" role="search" method="get" action="${escapeHtml(`${helpBase(site)}/${locale}/search`)}">
<label for="q">${escapeHtml(t.searchLabel)}</label>
<div><input id="q" name="q" type="search" maxlength="200" placeholder="${escapeHtml(t.searchPlaceholder)}" value="${escapeHtml(page.query ?? '')}"><button type="submit">${escapeHtml(t.searchButton)}</button></div>
</form>
</div>
</header>
<main id="main" class="wrap">
${page.body}
</main>
<aside class="help wrap" aria-labelledby="still-need-help">
<div><h2 id="still-need-help">${escapeHtml(t.stillNeedHelp)} ${escapeHtml(t.chatWithUs)}</h2>
<p>${escapeHtml(t.chatHint)}</p></div>
</aside>
<footer class="wrap">${escapeHtml(site.siteName)} · ${escapeHtml(t.helpCenter)}</footer>
<script nonce="${page.nonce}" async src="${escapeHtml(new URL(site.publicUrl).origin)}/widget.js" data-widget-key="${escapeHtml(site.widgetKey)}"></script>
</body>
</html>
`;
  return { html, policy: helpCenterPolicy(site.publicUrl, page.nonce, hashes) };
}

const siteTitle = (site: HelpSite, t: HelpCenterMessages) => `${site.title} · ${t.helpCenter}`;

/** Every language's home: the same page in each. */
const homeAlternates = (site: HelpSite) =>
  site.locales.map((code) => ({ locale: code, href: homeUrl(site, code) }));

function linkList(site: HelpSite, locale: string, articles: HelpArticleLink[]): string {
  return `<ul class="list">${articles
    .map(
      (a) =>
        `<li><a href="${escapeHtml(articleHref(site, locale, a.slug))}">${escapeHtml(a.title)}</a>${
          a.excerpt ? `<p>${escapeHtml(a.excerpt)}</p>` : ''
        }</li>`,
    )
    .join('')}</ul>`;
}

export interface RenderContext {
  site: HelpSite;
  locale: HelpCenterLocale;
  nonce: string;
  loaderStyleHash?: string;
}

export function homePage(
  ctx: RenderContext,
  content: { categories: HelpCategoryRow[]; loose: HelpArticleLink[] },
): Page {
  const { site, locale } = ctx;
  const t = HELP_CENTER_MESSAGES[locale];
  const cards = content.categories
    .map(
      (
        c,
      ) => `<li class="card"><h3><a href="${escapeHtml(categoryHref(site, locale, c.slug))}">${escapeHtml(c.name)}</a></h3>
${c.description ? `<p>${escapeHtml(c.description)}</p>` : ''}<p class="muted">${escapeHtml(fill(t.articleCount, { count: c.article_count }))}</p>
${linkList(site, locale, c.articles)}</li>`,
    )
    .join('\n');
  const body = [
    `<h1>${escapeHtml(site.title)}</h1>`,
    content.categories.length
      ? `<section aria-labelledby="categories"><h2 id="categories">${escapeHtml(t.categories)}</h2><ul class="grid">${cards}</ul></section>`
      : '',
    content.loose.length
      ? `<section aria-labelledby="more"><h2 id="more">${escapeHtml(content.categories.length ? t.moreArticles : t.articles)}</h2>${linkList(site, locale, content.loose)}</section>`
      : '',
    !content.categories.length && !content.loose.length ? `<p>${escapeHtml(t.empty)}</p>` : '',
  ].join('\n');
  return layout({
    ...ctx,
    title: siteTitle(site, t),
    description: fill(t.homeDescription, { site: site.siteName }),
    canonical: homeUrl(site, locale),
    alternates: homeAlternates(site),
    xDefault: homeUrl(site, site.defaultLocale),
    body,
  });
}

export function categoryPage(
  ctx: RenderContext,
  content: { category: HelpCategoryRow; articles: HelpArticleLink[] },
): Page {
  const { site, locale } = ctx;
  const t = HELP_CENTER_MESSAGES[locale];
  const { category, articles } = content;
  const href = categoryHref(site, locale, category.slug);
  const body = `<nav class="crumbs" aria-label="${escapeHtml(t.breadcrumb)}"><ol><li><a href="${escapeHtml(homeUrl(site, locale))}">${escapeHtml(t.home)}</a></li><li aria-current="page">${escapeHtml(category.name)}</li></ol></nav>
<h1>${escapeHtml(category.name)}</h1>
${category.description ? `<p class="muted">${escapeHtml(category.description)}</p>` : ''}
${articles.length ? linkList(site, locale, articles) : `<p>${escapeHtml(t.empty)}</p>`}`;
  return layout({
    ...ctx,
    title: `${category.name} · ${siteTitle(site, t)}`,
    description:
      category.description ??
      `${category.name}: ${fill(t.articleCount, { count: articles.length })}`,
    canonical: href,
    alternates: [{ locale, href }],
    xDefault: href,
    body,
  });
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(locale: string, date: Date): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/** Shortened to a description's length at a word boundary. */
function describe(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= 160) return flat;
  const cut = flat.slice(0, 157);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 80 ? cut.lastIndexOf(' ') : 157)}…`;
}

export function articlePage(ctx: RenderContext, article: HelpArticleRow): Page {
  const { site, locale } = ctx;
  const t = HELP_CENTER_MESSAGES[locale];
  const href = articleHref(site, locale, article.slug);
  const shown = article.translations.filter((tr) =>
    (site.locales as readonly string[]).includes(tr.locale),
  );
  const alternates = [
    { locale, href },
    ...shown.map((tr) => ({ locale: tr.locale, href: articleHref(site, tr.locale, tr.slug) })),
  ].sort((a, b) => a.locale.localeCompare(b.locale));
  const xDefault = alternates.find((alt) => alt.locale === site.defaultLocale)?.href ?? href;
  const updated = new Date(article.updated_at);
  const crumbs = [
    `<li><a href="${escapeHtml(homeUrl(site, locale))}">${escapeHtml(t.home)}</a></li>`,
    article.category_slug && article.category_name
      ? `<li><a href="${escapeHtml(categoryHref(site, locale, article.category_slug))}">${escapeHtml(article.category_name)}</a></li>`
      : '',
  ].join('');
  const also = shown.length
    ? `<p class="muted">${escapeHtml(t.alsoIn)}: ${shown
        .map(
          (tr) =>
            `<a href="${escapeHtml(articleHref(site, tr.locale, tr.slug))}" lang="${tr.locale}" hreflang="${tr.locale}">${escapeHtml(HELP_CENTER_MESSAGES[tr.locale as HelpCenterLocale]?.language ?? tr.locale)}</a>`,
        )
        .join(', ')}</p>`
    : '';
  const body = `<nav class="crumbs" aria-label="${escapeHtml(t.breadcrumb)}"><ol>${crumbs}</ol></nav>
<article>
<h1>${escapeHtml(article.title)}</h1>
<p class="muted"><time datetime="${updated.toISOString()}">${escapeHtml(fill(t.updated, { date: formatDate(locale, updated) }))}</time></p>
<div class="content">
${article.body_html}
</div>
${also}
</article>`;
  return layout({
    ...ctx,
    title: `${article.title} · ${siteTitle(site, t)}`,
    description: describe(article.excerpt ?? article.summary) || article.title,
    canonical: href,
    alternates,
    xDefault,
    body,
  });
}

export function searchPage(
  ctx: RenderContext,
  query: string,
  hits: { title: string; slug: string; snippet: string | null }[],
): Page {
  const { site, locale } = ctx;
  const t = HELP_CENTER_MESSAGES[locale];
  const href = `${helpBase(site)}/${locale}/search`;
  const results = !query
    ? `<p>${escapeHtml(t.searchHint)}</p>`
    : hits.length
      ? `<ul class="list">${hits
          .map(
            (hit) =>
              `<li><a href="${escapeHtml(articleHref(site, locale, hit.slug))}">${escapeHtml(hit.title)}</a>${
                hit.snippet ? `<p>${hit.snippet}</p>` : ''
              }</li>`,
          )
          .join('')}</ul>`
      : `<p>${escapeHtml(t.noResults)}</p>`;
  const heading = query ? fill(t.resultsFor, { q: query }) : t.searchTitle;
  return layout({
    ...ctx,
    title: `${heading} · ${siteTitle(site, t)}`,
    description: fill(t.homeDescription, { site: site.siteName }),
    canonical: query ? `${href}?q=${encodeURIComponent(query)}` : href,
    alternates: [{ locale, href: query ? `${href}?q=${encodeURIComponent(query)}` : href }],
    xDefault: homeUrl(site, site.defaultLocale),
    body: `<h1>${escapeHtml(heading)}</h1>\n${results}`,
    query,
    noindex: true,
  });
}

/**
 * The 404 page: in the help center's look when the help center is known, else plain. It never
 * says whether something exists unpublished.
 */
export function notFoundPage(
  ctx: RenderContext | undefined,
  publicUrl: string,
  nonce: string,
): Page {
  if (ctx) {
    const { site, locale } = ctx;
    const t = HELP_CENTER_MESSAGES[locale];
    return layout({
      ...ctx,
      title: `${t.notFoundTitle} · ${siteTitle(site, t)}`,
      description: t.notFoundText,
      canonical: homeUrl(site, locale),
      alternates: [],
      xDefault: homeUrl(site, site.defaultLocale),
      body: `<h1>${escapeHtml(t.notFoundTitle)}</h1>\n<p>${escapeHtml(t.notFoundText)}</p>\n<p><a href="${escapeHtml(homeUrl(site, locale))}">${escapeHtml(t.backHome)}</a></p>`,
      noindex: true,
    });
  }
  const t = HELP_CENTER_MESSAGES.en;
  const style = styleFor('#2563eb');
  const html = `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.notFoundTitle)}</title>
<meta name="description" content="${escapeHtml(t.notFoundText)}">
<meta name="robots" content="noindex">
<style>${style.css}</style>
</head>
<body>
<main id="main" class="wrap">
<h1>${escapeHtml(t.notFoundTitle)}</h1>
<p>${escapeHtml(t.notFoundText)}</p>
</main>
</body>
</html>
`;
  return { html, policy: helpCenterPolicy(publicUrl, nonce, [style.hash]) };
}

/** The sitemap: every language's home, the categories with published articles, the articles. */
export function sitemapXml(
  site: HelpSite,
  entries: { locale: string; kind: 'article' | 'category'; slug: string; updated_at: Date }[],
): string {
  const shown = entries.filter((e) => (site.locales as readonly string[]).includes(e.locale));
  const url = (loc: string, lastmod?: Date) =>
    `<url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : ''}</url>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${[
  ...site.locales.map((code) => url(homeUrl(site, code))),
  ...shown.map((e) =>
    url(
      e.kind === 'article'
        ? articleHref(site, e.locale, e.slug)
        : categoryHref(site, e.locale, e.slug),
      e.updated_at,
    ),
  ),
].join('\n')}
</urlset>
`;
}
