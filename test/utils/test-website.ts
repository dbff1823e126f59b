import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local website for the content import to crawl, logging every request it gets. */
export interface TestWebsite {
  url: string;
  port: number;
  /** Paths requested, in order (with their query). */
  requests: string[];
  /** The refund answer on `/faq/details` (a test changes it to see a re-import). */
  content: { refunds: string };
  close(): Promise<void>;
}

const layout = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Acme</title>${head}</head>
<body><header><nav><a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/faq/jsonld">FAQ</a></nav></header>
<main>${body}</main><footer><a href="/about">About</a> Acme Ltd, 1 Harbour Road</footer></body></html>`;

const paragraph = (topic: string, n: number) =>
  `<p>This guide explains ${topic} in detail, step ${n}: open the settings, choose ${topic},
  then confirm. It takes about ${n + 1} minutes and every change is saved at once, so nothing is
  lost if you close the page halfway through.</p>`;

/** Twenty documentation pages, each with its own text. */
export const DOC_PAGES = 20;
const TOPICS = ['invoices', 'exports', 'passwords', 'teams', 'billing', 'webhooks', 'labels'];
const docPage = (n: number) =>
  layout(
    `Guide ${n}`,
    `<h1>Guide ${n}: ${TOPICS[n % TOPICS.length]}</h1>${paragraph(TOPICS[n % TOPICS.length], n)}
     ${paragraph(`chapter ${n}`, n)}<p>Next: <a href="/docs/${(n % DOC_PAGES) + 1}">guide ${(n % DOC_PAGES) + 1}</a></p>`,
    `<link rel="canonical" href="/docs/${n}">`,
  );

/**
 * The site: a home page linking everything; 20 guides (listed in the sitemap, one only there);
 * FAQ pages in the four forms; a `robots.txt` forbidding `/private/`; a redirect to `offSite`; a
 * 5 MiB page; a page that never finishes; a loop of links; an image; and a link to
 * `loopbackLink`, an address on the site's allowed domains that the address policy refuses.
 */
export async function startTestWebsite(options: {
  offSite: string;
  loopbackLink: string;
}): Promise<TestWebsite> {
  const requests: string[] = [];
  const content = { refunds: 'Within 14 days of a purchase, in full.' };
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const pathname = path.split('?')[0];
    const doc = /^\/docs\/(\d+)$/.exec(pathname);
    if (pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(`User-agent: *\nDisallow: /private/\nSitemap: ${site.url}/sitemap.xml\n`);
    }
    if (pathname === '/sitemap.xml') {
      const urls = [
        ...Array.from({ length: DOC_PAGES }, (_, i) => `/docs/${i + 1}`),
        '/only-in-sitemap',
      ];
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
          .map((url) => `<url><loc>${site.url}${url}</loc></url>`)
          .join('')}</urlset>`,
      );
    }
    if (pathname === '/') {
      return html(
        layout(
          'Help',
          `<h1>Acme help</h1>${paragraph('the help center', 0)}
           <ul><li><a href="/docs/1">Guide 1</a></li><li><a href="/docs/1?ref=home">Guide 1 again</a></li>
           <li><a href="/faq/details">Questions</a></li><li><a href="/faq/dl">Glossary</a></li>
           <li><a href="/faq/headings">More questions</a></li><li><a href="/private/notes">Notes</a></li>
           <li><a href="/away">Our partner</a></li><li><a href="/huge">Everything</a></li>
           <li><a href="/slow">Status</a></li><li><a href="/loop/a">Loop</a></li>
           <li><a href="/logo.png">Logo</a></li><li><a href="${options.loopbackLink}">Internal</a></li></ul>`,
        ),
      );
    }
    if (doc) return Number(doc[1]) <= DOC_PAGES ? html(docPage(Number(doc[1]))) : html('', 404);
    switch (pathname) {
      case '/docs/':
        return html(
          layout(
            'Docs',
            `<h1>Docs</h1><ol>${Array.from({ length: 5 }, (_, i) => `<li><a href="/docs/${i + 1}">Guide ${i + 1}</a></li>`).join('')}</ol>`,
          ),
        );
      case '/only-in-sitemap':
        return html(layout('Hidden guide', `<h1>Hidden guide</h1>${paragraph('sitemaps', 7)}`));
      case '/about':
        return html(layout('About', `<h1>About Acme</h1>${paragraph('our company', 3)}`));
      case '/faq/jsonld':
        return html(
          layout(
            'FAQ',
            `<h1>Frequently asked</h1>${paragraph('our answers', 2)}`,
            `<script type="application/ld+json">${JSON.stringify({
              '@context': 'https://schema.org',
              '@type': 'FAQPage',
              mainEntity: [
                {
                  '@type': 'Question',
                  name: 'How do I reset my password?',
                  acceptedAnswer: {
                    '@type': 'Answer',
                    text: '<p>Click <b>Forgot password</b> on the login page; the link is valid for one hour.</p>',
                  },
                },
                {
                  '@type': 'Question',
                  name: 'Do you ship abroad?',
                  acceptedAnswer: { '@type': 'Answer', text: 'Yes, to 40 countries.' },
                },
              ],
            })}</script>`,
          ),
        );
      case '/faq/details':
        return html(
          layout(
            'Questions',
            `<h1>Questions</h1>${paragraph('questions', 4)}
            <details><summary>Can I cancel my plan at any time?</summary><p>Yes: Settings, Billing, Cancel. You keep access until the end of the month.</p></details>
            <details><summary>Do you offer refunds?</summary><p>${content.refunds}</p></details>`,
          ),
        );
      case '/faq/dl':
        return html(
          layout(
            'Glossary',
            `<h1>Glossary</h1>${paragraph('words', 5)}
            <dl><dt>What is a workspace?</dt><dd>A workspace holds your team's projects.</dd>
            <dt>What is a seat?</dt><dd>One member of your team.</dd></dl>`,
          ),
        );
      case '/faq/headings':
        return html(
          layout(
            'More questions',
            `<h1>More questions</h1>${paragraph('more questions', 6)}
            <h2>Where is my invoice?</h2><p>Every invoice is in Settings, Billing, History.</p>
            <h2>Contact</h2><p>Write to us.</p>`,
          ),
        );
      case '/private/notes':
        return html(layout('Private', '<h1>Private notes</h1><p>Nobody should read this.</p>'));
      case '/away':
        res.writeHead(302, { location: `${options.offSite}/landing` });
        return res.end();
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = `<p>${'x'.repeat(1023)}</p>`;
        for (let i = 0; i < 5 * 1024; i++) res.write(chunk);
        return res.end('</body></html>');
      }
      case '/slow':
        // Headers and a first part, then nothing: a page that never finishes.
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.write('<html><head><title>Status</title></head><body><p>Loading');
      case '/loop/a':
        return html(layout('Loop A', `<h1>A</h1>${paragraph('loops', 8)}<a href="/loop/b">B</a>`));
      case '/loop/b':
        return html(
          layout('Loop B', `<h1>B</h1>${paragraph('circles', 9)}<a href="/loop/a">A</a>`),
        );
      case '/logo.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.alloc(64));
      default:
        return html(layout('Not found', '<h1>Not found</h1>'), 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const site = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    content,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return site;
}

/** A server that only logs what reaches it (the off-site host and the refused address). */
export async function startRequestLog(): Promise<TestWebsite> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body><h1>Elsewhere</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    content: { refunds: '' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
