// npm run bench:kb — the help center (issue 29) at 10 000 published articles across 3 locales:
// the article page beside a raw node:http + pg baseline serving the same HTML from the same rows
// (bench/help-center-baseline.mjs imports the service's own template function; the bodies are
// checked equal but for the nonce first), the search page's p99 at BENCH_CONNECTIONS (20), and an
// article page's gzipped size (HTML with its CSS; no script is needed to read it).
// BENCH_ARTICLES (10000), BENCH_DURATION (10 s), BENCH_WARMUP (2 s); BENCH_SKIP_BUILD=1 skips
// the build; BENCH_SMOKE=1 runs it small (bench/lib/smoke.mjs).
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONNECTIONS, measure } from './lib/load.mjs';
import { log, ratio, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting, settle } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';
import { sleep } from './lib/stats.mjs';
import { LOCALES, seedArticles } from './lib/kb-seed.mjs';

const ARTICLES = setting('BENCH_ARTICLES', 10_000, 30);
const PAGE_TARGET = 0.8;
const SEARCH_P99_TARGET_MS = 50;
const GZIP_TARGET_BYTES = 30 * 1024;

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const machine = stack.machine();
stack.build();

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_kb');
  const org = stack.createOrganization(url);
  log(`seeding ${ARTICLES} published articles across ${LOCALES.join(', ')}`);
  const t = Date.now();
  const slugs = await seedArticles(url, org, ARTICLES);
  const seedSeconds = (Date.now() - t) / 1000;

  const port = await stack.freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const service = await stack.startService(url, publicUrl, port);
  track(() => service.stop());
  const baselinePort = await stack.freePort();
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [path.join(stack.ROOT, 'bench', 'help-center-baseline.mjs')],
    {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: url,
        PORT: String(baselinePort),
        PUBLIC_URL: publicUrl,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  track(async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) =>
      child.exitCode === null ? child.once('exit', resolve) : resolve(),
    );
  });
  const baseline = { url: `http://127.0.0.1:${baselinePort}`, pid: child.pid };
  for (let i = 0; ; i++) {
    if (
      await fetch(`${baseline.url}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('baseline not ready');
    await sleep(100);
  }

  const key = org.site.widget_key;
  const article = {
    method: 'GET',
    path: () => {
      const locale = pick(LOCALES);
      return `/help/${key}/${locale}/articles/${pick(slugs[locale])}`;
    },
  };
  const words = [
    'password',
    'invoice',
    'shiping',
    'refund',
    'acount',
    'delivery',
    'subscription',
    'login order',
    'change payment',
    'reset',
  ];
  const search = {
    method: 'GET',
    path: () => `/help/${key}/en/search?q=${encodeURIComponent(pick(words))}`,
  };

  // The same HTML from both, the nonce aside; and its size gzipped.
  const nonce = (html) => html.replace(/nonce="[^"]+"/g, 'nonce=""');
  const sizes = [];
  for (let i = 0; i < 20; i++) {
    const p = article.path();
    const [a, b] = await Promise.all([fetch(service.url + p), fetch(baseline.url + p)]);
    const [ha, hb] = [await a.text(), await b.text()];
    if (a.status !== 200 || b.status !== 200 || nonce(ha) !== nonce(hb)) {
      throw new Error(
        `${p}: the baseline's page differs from the service's (${a.status}, ${b.status})`,
      );
    }
    sizes.push(gzipSync(ha).length);
  }
  const searchCheck = await fetch(service.url + search.path());
  if (searchCheck.status !== 200) throw new Error(`search answered ${searchCheck.status}`);

  const postmaster = db.postmasterPid;
  await settle(2000);
  log(`${CONNECTIONS} connections: article page, service`);
  const servicePage = await measure(service, article, postmaster, {}, CONNECTIONS);
  log(`${CONNECTIONS} connections: article page, baseline`);
  const baselinePage = await measure(baseline, article, postmaster, {}, CONNECTIONS);
  log(`${CONNECTIONS} connections: search page, service`);
  const searchPage = await measure(service, search, postmaster, {}, CONNECTIONS);
  return {
    seed_seconds: seedSeconds,
    articles: ARTICLES,
    gzipped_article_bytes: { max: Math.max(...sizes), min: Math.min(...sizes) },
    article_page: { service: servicePage, baseline: baselinePage },
    search_page: searchPage,
  };
});

const runs = {
  'article page: service': results.article_page.service,
  'article page: baseline': results.article_page.baseline,
  'search page: service': results.search_page,
};
const void_ = Object.keys(runs).filter((name) => runs[name].non2xx + runs[name].errors > 0);
const pageRatio = ratio(results.article_page.service.rps, results.article_page.baseline.rps);
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const row = (name, r) => [
  name,
  r.rps,
  r.p50_ms,
  r.p99_ms,
  r.non2xx + r.errors,
  r.cpu_ms_per_request?.server ?? '',
];
const markdown = [
  `## Help center (issue 29): ${ARTICLES} published articles, ${LOCALES.length} locales, ${CONNECTIONS} connections`,
  '',
  table(
    ['route', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU ms/req'],
    [
      row('article page: service', results.article_page.service),
      row('article page: baseline (node:http + pg, same template)', results.article_page.baseline),
      row('search page: service', results.search_page),
    ],
  ),
  '',
  `- Article page ≥ ${PAGE_TARGET} of the baseline: ${pageRatio} — ${verdict(pageRatio >= PAGE_TARGET)}`,
  `- Search p99 ≤ ${SEARCH_P99_TARGET_MS} ms: ${results.search_page.p99_ms} ms — ${verdict(results.search_page.p99_ms <= SEARCH_P99_TARGET_MS)}`,
  `- Article page gzipped (HTML with its CSS, no script needed): ${results.gzipped_article_bytes.min}-${results.gzipped_article_bytes.max} bytes ≤ ${GZIP_TARGET_BYTES} — ${verdict(results.gzipped_article_bytes.max <= GZIP_TARGET_BYTES)}`,
  `- Seeding took ${results.seed_seconds} s; machine: ${machine.cpus} × ${machine.cpu_model}, load at start ${machine.load_average_at_start.join(' ')}`,
  ...void_.map((name) => `- WARNING: ${name} had errors or non-2xx answers; its figures are void`),
].join('\n');
writeResults('help-center', { machine, ...results, page_ratio: pageRatio }, markdown);
if (void_.length > 0) process.exitCode = 1;
