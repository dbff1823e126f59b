import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, RefusedAddress } from '../../common/net/guarded-lookup';
import { normalizeHost, refusal, type TargetPolicy } from '../../common/net/target-policy';

/** How the crawler reads one address (DESIGN section 11). */
export interface FetchLimits {
  policy: TargetPolicy;
  /** Whether an address is on a host the crawl may read (see `crawlScope`). */
  onSite: (url: URL) => boolean;
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

/** A page read, or why it was not (for the import's log, never shown raw to a visitor). */
export type FetchOutcome =
  { kind: 'page'; url: URL; html: string } | { kind: 'skipped'; url: URL; reason: string };

const MAX_REDIRECTS = 5;
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Whether the crawl may read this address at all: http(s) on one of its hosts. */
export function inScope(url: URL, limits: Pick<FetchLimits, 'onSite'>): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && limits.onSite(url);
}

/**
 * The hosts of a crawl: the start address's, the site's domain and its allowed domains
 * (`*.example.com` for subdomains; any port of a host unless the entry names one).
 */
export function crawlScope(start: URL, domain: string | null, allowedDomains: string[]) {
  const entries = [start.host, ...(domain ? [domain] : []), ...allowedDomains]
    .filter((entry) => !entry.startsWith('app:'))
    .map((entry) => entry.toLowerCase().split(':'));
  return (url: URL): boolean => {
    const host = normalizeHost(url.hostname);
    return entries.some(([pattern, port]) => {
      if (port !== undefined && port !== url.port) return false;
      return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
    });
  };
}

/**
 * Reads an HTML page: redirects followed only within the crawl's hosts, every address checked
 * against the policy when the connection is made (loopback, private and the service's own
 * database only when CRAWL_ALLOWED_HOSTS names them), at most `maxBytes`, within `timeoutMs` from
 * the first byte asked to the last one read (a page that never finishes is dropped).
 */
export function fetchPage(start: URL, limits: FetchLimits): Promise<FetchOutcome> {
  return follow(start, limits, true);
}

/** `robots.txt` or a sitemap: the same rules as a page, any type; undefined when unreadable. */
export async function fetchText(url: URL, limits: FetchLimits): Promise<string | undefined> {
  const outcome = await follow(url, limits, false);
  return outcome.kind === 'page' ? outcome.html : undefined;
}

async function follow(start: URL, limits: FetchLimits, htmlOnly: boolean): Promise<FetchOutcome> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!inScope(url, limits)) {
      return { kind: 'skipped', url, reason: `${url.host} is not one of the site's hosts` };
    }
    const answer = await get(url, limits, htmlOnly);
    if (answer.kind !== 'redirect') return answer;
    url = answer.location;
  }
  return { kind: 'skipped', url, reason: 'too many redirects' };
}

type Answer = FetchOutcome | { kind: 'redirect'; location: URL };

const HTML = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

function get(url: URL, limits: FetchLimits, htmlOnly: boolean): Promise<Answer> {
  const refuse = (address: string) =>
    refusal(limits.policy, { host: normalizeHost(url.hostname), port: portOf(url), address });
  const literal = normalizeHost(url.hostname);
  if (isIP(literal)) {
    const reason = refuse(literal);
    if (reason) return Promise.resolve({ kind: 'skipped', url, reason });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve) => {
    const skip = (reason: string) => resolve({ kind: 'skipped', url, reason });
    const req = client.get(
      url,
      {
        lookup: guardedLookup(refuse),
        headers: {
          'User-Agent': limits.userAgent,
          Accept: htmlOnly ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' : '*/*',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          try {
            resolve({ kind: 'redirect', location: new URL(res.headers.location, url) });
          } catch {
            skip('a malformed redirect');
          }
          return;
        }
        if (status !== 200) {
          res.resume();
          return skip(`status ${status}`);
        }
        const type = String(res.headers['content-type'] ?? '');
        if (htmlOnly && !HTML.test(type)) {
          res.resume();
          return skip(`not HTML (${type || 'no type'})`);
        }
        if (Number(res.headers['content-length']) > limits.maxBytes) {
          req.destroy();
          return skip('larger than the page limit');
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= limits.maxBytes) return void chunks.push(chunk);
          req.destroy();
          skip('larger than the page limit');
        });
        res.on('end', () =>
          resolve({ kind: 'page', url, html: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => skip('the connection broke'));
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      skip('no answer within the page deadline');
    }, limits.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (error) =>
      skip(error instanceof RefusedAddress ? error.message : `unreachable (${error.message})`),
    );
  });
}
