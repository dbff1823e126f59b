import { createHash } from 'node:crypto';
import { lazyModule } from '../../common/lazy-module';
import { extractQuestions, type QuestionAnswer } from './page-questions';
import { type HtmlElement, type HtmlParent, parseDocument } from './html-document';

/** What one crawled page gives the knowledge base and the answer bot. */
export interface PageContent {
  /** The page's canonical address (its `<link rel="canonical">` on the same host, else its own). */
  canonical: string;
  title: string;
  description: string;
  /** The main content in Markdown (empty when the page has none worth an article). */
  markdown: string;
  /** sha256 of the Markdown: an unchanged page is not written again. */
  hash: string;
  /** Addresses the page links to (absolute, without fragments), for the crawl to follow. */
  links: URL[];
  questions: QuestionAnswer[];
  /** `<meta name="robots" content="noindex">` or `nofollow`. */
  noindex: boolean;
  nofollow: boolean;
}

const turndown = lazyModule(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  const TurndownService = require('turndown') as typeof import('turndown');
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  // Forms, scripts and media have no text worth keeping in an article.
  service.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'svg', 'canvas']);
  return service;
});
const readability = lazyModule(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  () => require('@mozilla/readability') as typeof import('@mozilla/readability'),
);

/** Shortest main text kept as an article (a page of navigation only is not one). */
const MIN_ARTICLE_CHARS = 80;

/**
 * The page's main content by Mozilla's Readability (the reader view of Firefox), turned into
 * Markdown by Turndown; its links and its question-and-answer pairs read from the whole page.
 */
export function readPage(html: string, address: URL): PageContent {
  const document = parseDocument(html);
  const meta = (name: string) =>
    document.querySelector(`meta[name="${name}"]`)?.getAttribute('content')?.trim() ?? '';
  const robots = meta('robots').toLowerCase();
  const links = linksOf(document, address);
  const questions = extractQuestions(document);
  const canonical = canonicalOf(document, address);
  // Readability changes the document it reads: the links and questions above come first.
  // The article stays a node (no HTML text to parse again): its links made absolute in place,
  // then straight to Turndown. Three parses of each page became one (bench:crawl).
  const article = new (readability().Readability)<HtmlElement>(document, {
    charThreshold: 200,
    serializer: (element: unknown) => element as HtmlElement,
  }).parse();
  const content = article?.content;
  if (content) absoluteLinks(content, address);
  const text = content ? turndown().turndown(content) : '';
  const markdown = text.trim().length >= MIN_ARTICLE_CHARS ? text.trim() : '';
  const title = (
    article?.title ||
    document.querySelector('h1')?.textContent ||
    address.pathname
  ).trim();
  return {
    canonical,
    title: title.slice(0, 200),
    description: (meta('description') || article?.excerpt || '').trim().slice(0, 500),
    markdown,
    hash: createHash('sha256').update(markdown).digest('hex'),
    links,
    questions,
    noindex: /\bnoindex\b|\bnone\b/.test(robots),
    nofollow: /\bnofollow\b|\bnone\b/.test(robots),
  };
}

/** An address without its fragment, resolved against the page (undefined when malformed). */
export function resolveLink(href: string, base: URL): URL | undefined {
  try {
    const url = new URL(href, base);
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

function linksOf(document: HtmlParent, base: URL): URL[] {
  const seen = new Set<string>();
  const links: URL[] = [];
  for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
    const rel = anchor.getAttribute('rel') ?? '';
    if (/\bnofollow\b/i.test(rel)) continue;
    const url = resolveLink(anchor.getAttribute('href') ?? '', base);
    if (!url || seen.has(url.href)) continue;
    seen.add(url.href);
    links.push(url);
  }
  return links;
}

function canonicalOf(document: HtmlParent, address: URL): string {
  const href = document.querySelector('link[rel="canonical"]')?.getAttribute('href');
  const canonical = href ? resolveLink(href, address) : undefined;
  const own = new URL(address.href);
  own.hash = '';
  // A canonical on another host is not ours to follow: the page stands for itself.
  return canonical && canonical.host === address.host ? canonical.href : own.href;
}

/** Links in the article made absolute, so the Markdown still points at the owner's site. */
function absoluteLinks(article: HtmlElement, base: URL): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of Array.from(article.querySelectorAll(selector))) {
      const url = resolveLink(element.getAttribute(attribute) ?? '', base);
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
        element.setAttribute(attribute, url.href);
      } else element.removeAttribute(attribute);
    }
  }
}
