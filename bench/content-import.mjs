// npm run bench:crawl — the content import (issue 30): a local website of BENCH_CRAWL_PAGES (300)
// pages of about 20 KB each (navigation, an article with headings, lists and a table, a FAQ on
// every tenth page), crawled by the service's own BullMQ job with its two readers, as an owner
// starts it over the agent API. Reported: pages per second from "start" to "completed" (the
// progress read every 100 ms), and the parse time per page (Readability, Turndown and the FAQ
// reading, `readPage` of the service timed here on the same pages).
// CRAWL_DELAY_MS is 0 by default here so the figure is our own work; with the shipped 250 ms
// pause two readers fetch at most 8 pages/s: the politeness, not the parsing, is the limit then.
// BENCH_CRAWL_DELAY_MS sets it; BENCH_SKIP_BUILD=1 skips the build; BENCH_SMOKE=1 crawls a few
// pages (bench/lib/smoke.mjs).
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { registerOwner, request as call } from './lib/http.mjs';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const PAGES = setting('BENCH_CRAWL_PAGES', 300, 10);
const DELAY_MS = Number(process.env.BENCH_CRAWL_DELAY_MS ?? 0);
const TARGET_PAGES_PER_SECOND = 20;

const TOPICS = ['invoices', 'exports', 'passwords', 'teams', 'billing', 'webhooks', 'labels'];
const paragraph = (topic, n) =>
  `<p>This guide explains ${topic} in detail, step ${n}: open the settings, choose ${topic}, then
  confirm. It takes about ${(n % 9) + 1} minutes and every change is saved at once, so nothing is
  lost if you close the page halfway through. Teams of every size use ${topic} this way.</p>`;
const nav = Array.from(
  { length: 80 },
  (_, i) => `<a href="/docs/${i + 1}">Guide ${i + 1}</a>`,
).join(' ');

function page(n) {
  const topic = TOPICS[n % TOPICS.length];
  const sections = Array.from(
    { length: 16 },
    (_, s) =>
      `<h2>Part ${s + 1}: ${topic} ${s}</h2>${paragraph(topic, n + s)}${paragraph(`chapter ${s}`, n)}
       <ul><li>Open ${topic}</li><li>Choose an item</li><li>Save</li></ul>`,
  ).join('');
  const faq =
    n % 10 === 0
      ? `<section><h2>Questions</h2>${Array.from(
          { length: 5 },
          (_, q) =>
            `<details><summary>How do I change ${topic} ${n}-${q}?</summary><p>Open Settings, then ${topic}, and choose Change.</p></details>`,
        ).join('')}</section>`
      : '';
  const next = [1, 2, 3].map((k) => ((n + k - 1) % PAGES) + 1);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide ${n}: ${topic} - Acme</title>
<meta name="description" content="Everything about ${topic}, guide ${n}."><link rel="canonical" href="/docs/${n}">
<style>body{font-family:sans-serif}</style><script>window.analytics=[];</script></head>
<body><header><nav>${nav}</nav></header>
<main><article><h1>Guide ${n}: ${topic}</h1>${sections}
<table><tr><th>Plan</th><th>Limit</th></tr><tr><td>Basic</td><td>${n}</td></tr></table>
${faq}<p>Next: ${next.map((k) => `<a href="/docs/${k}">guide ${k}</a>`).join(', ')}</p></article></main>
<footer><a href="/about">About</a> Acme Ltd, 1 Harbour Road</footer></body></html>`;
}

function startWebsite() {
  const served = { pages: 0 };
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    const doc = /^\/docs\/(\d+)$/.exec(pathname);
    if (pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nAllow: /\n');
    }
    if (pathname === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
          { length: PAGES },
          (_, i) => `<url><loc>http://${req.headers.host}/docs/${i + 1}</loc></url>`,
        ).join('')}</urlset>`,
      );
    }
    if (pathname === '/' || (doc && Number(doc[1]) >= 1 && Number(doc[1]) <= PAGES)) {
      served.pages++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page(doc ? Number(doc[1]) : 1));
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Not found</title><p>Not found</p>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        served,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

/** `readPage` of the service, timed on the same pages in this process. */
function parseTimes() {
  const require = createRequire(import.meta.url);
  const { readPage } = require(
    path.join(stack.ROOT, 'dist', 'src', 'modules', 'content-import', 'page-content.js'),
  );
  const times = [];
  for (let n = 1; n <= Math.min(PAGES, 200); n++) {
    const html = page(n);
    const started = performance.now();
    readPage(html, new URL(`http://127.0.0.1/docs/${n}`));
    times.push(performance.now() - started);
  }
  // The first 20 warm the JIT up (half of them when there are fewer pages, in a smoke run).
  return {
    bytes: Buffer.byteLength(page(1)),
    times: times.slice(Math.min(20, Math.floor(times.length / 2))),
  };
}

const machine = stack.machine();
stack.build();

const results = await withCleanup(async (track) => {
  const website = await startWebsite();
  track(() => website.close());
  const host = `127.0.0.1:${website.port}`;
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_crawl');
  const port = await stack.freePort();
  const service = await stack.startService(url, `http://127.0.0.1:${port}`, port, {
    CRAWL_ALLOWED_HOSTS: host,
    CRAWL_DELAY_MS: String(DELAY_MS),
  });
  track(() => service.stop());

  const org = await registerOwner(service.url);
  const site = `${service.url}/api/agent/sites/${org.site.id}`;
  await call(site, 'PATCH', { allowed_domains: [host] }, org.token);

  log(`crawling ${PAGES} pages (CRAWL_DELAY_MS=${DELAY_MS})`);
  const started = performance.now();
  await call(
    `${site}/content-import`,
    'POST',
    { start_url: `http://${host}/`, max_pages: PAGES + 1 },
    org.token,
  );
  let state;
  for (;;) {
    state = (await call(`${site}/content-import`, 'GET', undefined, org.token)).data;
    if (['completed', 'failed', 'cancelled'].includes(state.status)) break;
    if (performance.now() - started > 600_000)
      throw new Error('the crawl did not finish in 10 min');
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  if (state.status !== 'completed')
    throw new Error(`the crawl ended ${state.status}: ${state.error}`);
  const parse = parseTimes();
  return {
    pages: state.summary.pages,
    kb_articles: state.summary.kb_articles,
    bot_replies: state.summary.bot_replies,
    pages_served: website.served.pages,
    seconds: round(seconds, 2),
    pages_per_second: round(state.summary.pages / seconds),
    crawl_delay_ms: DELAY_MS,
    page_bytes: parse.bytes,
    parse_ms: {
      mean: round(parse.times.reduce((a, b) => a + b, 0) / parse.times.length, 2),
      p50: round(percentile(parse.times, 50), 2),
      p99: round(percentile(parse.times, 99), 2),
    },
  };
});

const met = results.pages_per_second >= TARGET_PAGES_PER_SECOND;
const markdown = [
  `## Content import (issue 30): ${results.pages} pages of ${Math.round(results.page_bytes / 1024)} KB, two readers, CRAWL_DELAY_MS=${results.crawl_delay_ms}`,
  '',
  table(
    ['pages', 'articles', 'bot replies', 'seconds', 'pages/s', 'parse ms/page (mean, p50, p99)'],
    [
      [
        results.pages,
        results.kb_articles,
        results.bot_replies,
        results.seconds,
        results.pages_per_second,
        `${results.parse_ms.mean}, ${results.parse_ms.p50}, ${results.parse_ms.p99}`,
      ],
    ],
  ),
  '',
  `- Crawl ≥ ${TARGET_PAGES_PER_SECOND} pages/s with two requests at a time: ${results.pages_per_second} — ${met ? 'met' : 'MISSED'}`,
  `- With the shipped pause (CRAWL_DELAY_MS=250 per reader) two readers fetch at most 8 pages/s: the pause is the limit, not the ${results.parse_ms.mean} ms of parsing per page.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model.split(' ').slice(0, 2).join(' ')}, load at start ${machine.load_average_at_start.join(' ')}`,
].join('\n');
writeResults('content-import', { machine, ...results }, markdown);
