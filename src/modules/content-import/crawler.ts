import { setTimeout as sleep } from 'node:timers/promises';
import { lazyModule } from '../../common/lazy-module';
import { fetchPage, fetchText, inScope, type FetchLimits } from './page-fetch';
import { readPage, resolveLink, type PageContent } from './page-content';
import { parseDocument } from './html-document';

const robotsParser = lazyModule(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  () => require('robots-parser') as (typeof import('robots-parser'))['default'],
);

/** What to read (DESIGN section 11). */
export interface CrawlPlan {
  start: URL;
  maxPages: number;
  /** Path prefixes: only pages under one of them become articles (the start page is read anyway). */
  include: string[];
  /** Path prefixes never read. */
  exclude: string[];
  /** Pause of each of the two readers between two pages. */
  delayMs: number;
  concurrency: number;
  limits: FetchLimits;
}

/** Told of the crawl as it goes; `stopped` is asked before each page (a cancelled import). */
export interface CrawlListener {
  page(content: PageContent, address: URL): Promise<void>;
  progress(read: number, planned: number): Promise<void>;
  stopped(): boolean;
}

export interface CrawlResult {
  read: number;
  skipped: { url: string; reason: string }[];
}

const MAX_SITEMAPS = 5;
const MAX_ROBOTS_DELAY_MS = 10_000;

/**
 * A polite breadth-first crawl of one site: `robots.txt` honoured (robots-parser, the same rules
 * Google documents), the sitemaps it names (or `/sitemap.xml`) read first, links followed on the
 * plan's hosts only, each address read once, at most `maxPages` pages, `concurrency` readers each
 * pausing `delayMs` (or the site's `Crawl-delay`) between two pages.
 */
export async function crawl(plan: CrawlPlan, listener: CrawlListener): Promise<CrawlResult> {
  const robots = new RobotsCache(plan.limits);
  const queue: URL[] = [];
  const seen = new Set<string>();
  const skipped: CrawlResult['skipped'] = [];
  let read = 0;

  const enqueue = (url: URL) => {
    if (!inScope(url, plan.limits) || seen.has(url.href)) return;
    if (plan.exclude.some((prefix) => url.pathname.startsWith(prefix))) return;
    if (url.href !== plan.start.href && !wanted(plan, url)) return;
    seen.add(url.href);
    queue.push(url);
  };
  enqueue(plan.start);
  for (const url of await sitemapEntries(plan, await robots.sitemaps(plan.start))) enqueue(url);

  let busy = 0;
  const reader = async () => {
    let first = true;
    while (read < plan.maxPages && !listener.stopped()) {
      const url = queue.shift();
      if (!url) {
        // The other reader may be about to add the links of the page it is reading.
        if (busy === 0) return;
        await sleep(20);
        continue;
      }
      busy += 1;
      try {
        const rules = await robots.rules(url);
        if (!rules.allowed(url)) {
          skipped.push({ url: url.href, reason: 'robots.txt forbids it' });
          continue;
        }
        if (!first) await sleep(Math.max(plan.delayMs, rules.delayMs));
        first = false;
        if (listener.stopped()) return;
        read += 1;
        const outcome = await fetchPage(url, plan.limits);
        if (outcome.kind === 'skipped') {
          skipped.push({ url: url.href, reason: outcome.reason });
        } else {
          const content = readPage(outcome.html, outcome.url);
          if (!content.nofollow) content.links.forEach(enqueue);
          if (!content.noindex && wanted(plan, outcome.url)) {
            await listener.page(content, outcome.url);
          }
        }
        await listener.progress(read, Math.min(plan.maxPages, read + queue.length));
      } finally {
        busy -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, reader));
  return { read, skipped };
}

function wanted(plan: CrawlPlan, url: URL): boolean {
  return (
    plan.include.length === 0 || plan.include.some((prefix) => url.pathname.startsWith(prefix))
  );
}

interface Rules {
  allowed(url: URL): boolean;
  delayMs: number;
}

/** Each host's `robots.txt`, read once; a missing or unreadable one allows everything. */
class RobotsCache {
  private readonly hosts = new Map<string, Promise<Rules & { sitemaps: string[] }>>();

  constructor(private readonly limits: FetchLimits) {}

  rules(url: URL): Promise<Rules> {
    return this.of(url);
  }

  async sitemaps(url: URL): Promise<string[]> {
    return (await this.of(url)).sitemaps;
  }

  private of(url: URL) {
    let rules = this.hosts.get(url.origin);
    if (!rules) {
      rules = this.read(url.origin);
      this.hosts.set(url.origin, rules);
    }
    return rules;
  }

  private async read(origin: string) {
    const address = `${origin}/robots.txt`;
    const text = (await fetchText(new URL(address), this.limits)) ?? '';
    const robots = robotsParser()(address, text);
    const agent = this.limits.userAgent;
    return {
      allowed: (url: URL) => robots.isAllowed(url.href, agent) !== false,
      delayMs: Math.min(MAX_ROBOTS_DELAY_MS, (robots.getCrawlDelay(agent) ?? 0) * 1000),
      sitemaps: robots.getSitemaps(),
    };
  }
}

/** The pages a site's sitemaps list (a sitemap index followed one level), on the plan's hosts. */
async function sitemapEntries(plan: CrawlPlan, named: string[]): Promise<URL[]> {
  const pending = named.length > 0 ? [...named] : [`${plan.start.origin}/sitemap.xml`];
  const pages: URL[] = [];
  for (let read = 0; pending.length > 0 && read < MAX_SITEMAPS; read++) {
    const address = resolveLink(pending.shift() ?? '', plan.start);
    if (!address) continue;
    const xml = await fetchText(address, plan.limits);
    if (!xml) continue;
    const document = parseDocument(xml);
    const locations = (selector: string) =>
      Array.from(document.querySelectorAll(selector)).map((element) =>
        (element.textContent ?? '').trim(),
      );
    pending.push(...locations('sitemap > loc'));
    for (const location of locations('url > loc')) {
      const url = resolveLink(location, address);
      if (url) pages.push(url);
    }
  }
  return pages.slice(0, plan.maxPages * 2);
}
