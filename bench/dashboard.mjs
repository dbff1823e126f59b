// npm run bench:dashboard — the agent dashboard's budgets (issue 19), in headless Chromium
// (Debian's /usr/bin/chromium, or CHROMIUM_PATH) against the built service on an embedded
// PostgreSQL seeded like bench:api (BENCH_CONVERSATIONS, BENCH_MESSAGES), logged in as the seeded
// organization's owner (the password `org:create --json` printed):
// - the JavaScript the dashboard loads for the inbox (gzip -9 of every script file);
// - navigation start to the conversation list showing its first item (BENCH_DASHBOARD_LOADS cold
//   loads, each in a fresh browser context: empty cache, session cookie only; then as many
//   reloads with the cache warm);
// - a click on another conversation to its messages shown (BENCH_DASHBOARD_SWITCHES);
// - a visitor message posted over the widget API by this process to its text shown in the open
//   conversation (BENCH_DASHBOARD_MESSAGES);
// - `GET /api/agent/search` answer times (BENCH_DASHBOARD_SEARCHES), and the search page from
//   navigation start to its hits shown.
// BENCH_SKIP_BUILD=1 skips the builds; BENCH_SMOKE=1 runs it small (bench/lib/smoke.mjs).
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import { setting, settle } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const CONVERSATIONS = setting('BENCH_CONVERSATIONS', 100_000, 50);
const MESSAGES = setting('BENCH_MESSAGES', 1_000_000, 500);
const LOADS = setting('BENCH_DASHBOARD_LOADS', 7, 1);
const SWITCHES = setting('BENCH_DASHBOARD_SWITCHES', 20, 2);
const VISITOR_MESSAGES = setting('BENCH_DASHBOARD_MESSAGES', 50, 2);
// A smoke run asks each term once: every search type is still asked.
const SEARCHES = setting('BENCH_DASHBOARD_SEARCHES', 50, 10);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KB = 1000;
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;
const summary = (values) => ({
  n: values.length,
  p50: round(percentile(values, 50)),
  p99: round(percentile(values, 99)),
  max: round(Math.max(...values)),
});

const started = Date.now();
const machine = stack.machine();
stack.build({ web: true });

// In every page: the time (ms since navigation start, and wall clock) the first conversation of
// the list, a hit of the search page, and each bench visitor message in the open conversation's
// log are drawn (the frame after they enter the DOM).
const OBSERVER = `
window.__marks = {};
window.__seen = {};
const drawn = (fn) => requestAnimationFrame(() => setTimeout(fn));
new MutationObserver((records) => {
  const marks = window.__marks;
  if (marks.list === undefined && document.querySelector('ul[aria-label="Conversations"] li a')) {
    marks.list = -1;
    drawn(() => { marks.list = performance.now(); });
  }
  if (marks.hits === undefined &&
      document.querySelector('section[aria-label="Results"] [role="status"]')) {
    marks.hits = -1;
    drawn(() => { marks.hits = performance.now(); });
  }
  for (const record of records) {
    for (const node of record.addedNodes) {
      const element = node.nodeType === 1 ? node : node.parentElement;
      if (!element || !element.closest('[role="log"]')) continue;
      for (const match of (node.textContent || '').matchAll(/bench visitor message (\\d+)\\b/g)) {
        const n = match[1];
        if (window.__seen[n] === undefined) {
          window.__seen[n] = -1;
          drawn(() => { window.__seen[n] = Date.now(); });
        }
      }
    }
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
`;

async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function newContext(browser, storageState) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState,
  });
  await context.addInitScript(OBSERVER);
  return context;
}

const waitMark = (page, name, timeout = 30_000) =>
  page.waitForFunction((n) => window.__marks[n] > 0, name, { timeout, polling: 50 });

/** Logs in on the login page, as an agent does; returns the context's cookies for the others. */
async function logIn(browser, service, owner) {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${service}/login`);
  await page.getByLabel('Email', { exact: true }).fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await waitMark(page, 'list');
  const state = await context.storageState();
  await context.close();
  return state;
}

async function measureLoads(browser, service, state) {
  const cold = [];
  const warm = [];
  let files = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await newContext(browser, state);
    const page = await context.newPage();
    const scripts = new Map();
    if (i === 0) {
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        try {
          scripts.set(new URL(response.url()).pathname, await response.body());
        } catch {
          // A redirect or an aborted request has no body.
        }
      });
    }
    await page.goto(`${service}/inbox`);
    await waitMark(page, 'list');
    cold.push(await page.evaluate(() => window.__marks.list));
    if (i === 0) {
      // Whatever the inbox fetches lazily right after showing the list counts too.
      await settle(2000);
      files = [...scripts.entries()].map(([name, body]) => ({
        name,
        bytes: body.length,
        gzip_bytes: gz(body),
      }));
    }
    await page.reload();
    await waitMark(page, 'list');
    warm.push(await page.evaluate(() => window.__marks.list));
    await context.close();
  }
  return {
    js_files: files,
    js_gzip_bytes: files.reduce((sum, f) => sum + f.gzip_bytes, 0),
    list_cold_ms: { ...summary(cold), all: cold.map((v) => round(v)) },
    list_warm_ms: { ...summary(warm), all: warm.map((v) => round(v)) },
  };
}

/** Clicks items of the list in turn; each time, to the clicked conversation's messages drawn. */
async function measureSwitches(page) {
  const times = [];
  for (let i = 0; i < SWITCHES; i++) {
    const ms = await page.evaluate(
      async (index) => {
        const links = [...document.querySelectorAll('ul[aria-label="Conversations"] li a')];
        const current = document.querySelector('section[aria-label^="Conversation with"]');
        const others = links.filter(
          (a) =>
            a.getAttribute('aria-current') !== 'true' &&
            `Conversation with ${a.querySelector('p')?.textContent}` !==
              current?.getAttribute('aria-label'),
        );
        const link = others[index % others.length];
        const label = `Conversation with ${link.querySelector('p').textContent}`;
        const shown = () =>
          document
            .querySelector(`section[aria-label="${CSS.escape(label).replace(/\\ /g, ' ')}"]`)
            ?.querySelector('[role="log"] > *') ?? null;
        const start = performance.now();
        link.click();
        await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`not shown: ${label}`)), 15_000);
          const check = () => {
            if (shown()) {
              observer.disconnect();
              clearTimeout(timer);
              requestAnimationFrame(() => setTimeout(resolve));
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(document.body, { childList: true, subtree: true });
          check();
        });
        return performance.now() - start;
      },
      i * 3 + 1,
    );
    times.push(ms);
    await sleep(300);
  }
  return { ...summary(times), all: times.map((v) => round(v)) };
}

/** A new visitor's conversation open in the inbox; its messages come from this process. */
async function measureVisitorMessages(page, service, widgetKey) {
  const init = await post(`${service}/api/widget/init`, {
    widget_key: widgetKey,
    visitor_name: 'Bench Visitor',
  });
  // As the widget's frame does: the session token, not the visitor's id (a leaked `visitor_uid`
  // is no login on the routes that act for a visitor).
  const say = (body) =>
    post(
      `${service}/api/widget/messages`,
      { body },
      { authorization: `Bearer ${init.session_token}` },
    );
  await say('Hello, this is the bench visitor.');
  const item = page.getByRole('link', { name: /Bench Visitor/ });
  await item.first().waitFor({ timeout: 15_000 });
  await item.first().click();
  await page
    .getByRole('log', { name: 'Messages' })
    .getByText('Hello, this is the bench visitor.')
    .waitFor({ timeout: 15_000 });
  const sentAt = [];
  for (let n = 0; n < VISITOR_MESSAGES; n++) {
    sentAt[n] = Date.now();
    await say(`bench visitor message ${n}`);
    await sleep(250);
  }
  const deadline = Date.now() + 15_000;
  let seen = {};
  while (Date.now() < deadline) {
    seen = await page.evaluate(() => window.__seen);
    if (Object.values(seen).filter((v) => v > 0).length >= VISITOR_MESSAGES) break;
    await sleep(200);
  }
  const delays = [];
  for (let n = 0; n < VISITOR_MESSAGES; n++) {
    if (seen[n] > 0) delays.push(seen[n] - sentAt[n]);
  }
  return { sent: VISITOR_MESSAGES, shown: delays.length, ...summary(delays) };
}

const TERMS = [
  ['messages', 'password'],
  ['messages', 'invoice'],
  ['messages', 'yearly plan'],
  ['messages', 'reset link'],
  ['messages', 'mail provider'],
  ['messages', 'bench visitor message 7'],
  ['messages', 'nothing like this anywhere'],
  ['visitors', 'Visitor 4242'],
  ['visitors', 'visitor777@example.com'],
  ['tickets', 'download invoice'],
];

async function measureSearchApi(service, token) {
  const times = [];
  const byType = {};
  for (let i = 0; i < SEARCHES; i++) {
    const [type, q] = TERMS[i % TERMS.length];
    const url = `${service}/api/agent/search?q=${encodeURIComponent(q)}&type=${type}&per_page=50`;
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    const ms = performance.now() - t;
    if (!res.ok) throw new Error(`search ${q}: ${res.status}`);
    times.push(ms);
    (byType[type] ??= []).push(ms);
  }
  return {
    ...summary(times),
    by_type: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, summary(v)])),
  };
}

const SEARCH_PAGE_TERMS = ['password', 'invoice', 'yearly plan', 'reset link', 'mail provider'];

async function measureSearchPage(browser, service, state) {
  const times = [];
  const context = await newContext(browser, state);
  const page = await context.newPage();
  // As many loads as the inbox had, five at most.
  for (const q of SEARCH_PAGE_TERMS.slice(0, LOADS)) {
    await page.goto(`${service}/search?q=${encodeURIComponent(q)}&type=messages`);
    await waitMark(page, 'hits');
    times.push(await page.evaluate(() => window.__marks.hits));
  }
  await context.close();
  return { ...summary(times), all: times.map((v) => round(v)) };
}

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_dashboard');
  const org = stack.createOrganization(url);
  log(`seeding ${CONVERSATIONS} conversations, ${MESSAGES} messages`);
  const t = Date.now();
  await seed(url, org, {
    conversations: CONVERSATIONS,
    messagesPerConversation: MESSAGES / CONVERSATIONS,
  });
  const seedSeconds = round((Date.now() - t) / 1000, 0);

  // Cookie requests must come from PUBLIC_URL: the service runs on a port chosen here.
  const port = await stack.freePort();
  const service = `http://127.0.0.1:${port}`;
  const server = await stack.startService(url, service, port);
  track(() => server.stop());
  const owner = { email: org.owner.email, password: org.owner.password };
  const { token } = await post(`${service}/api/agent/auth/login`, owner);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  track(() => browser.close());
  const state = await logIn(browser, service, owner);

  log(`inbox: ${LOADS} cold loads (and warm reloads)`);
  const loads = await measureLoads(browser, service, state);

  const context = await newContext(browser, state);
  const page = await context.newPage();
  await page.goto(`${service}/inbox`);
  await waitMark(page, 'list');
  log(`${SWITCHES} conversation switches`);
  const switches = await measureSwitches(page);
  log(`${VISITOR_MESSAGES} visitor messages into the open conversation`);
  const visitorMessages = await measureVisitorMessages(page, service, org.site.widget_key);
  await context.close();

  log(`${SEARCHES} search requests, then the search page`);
  const searchApi = await measureSearchApi(service, token);
  const searchPage = await measureSearchPage(browser, service, state);
  return {
    data: { conversations: CONVERSATIONS, messages: MESSAGES, seed_seconds: seedSeconds },
    loads,
    switches,
    visitor_messages: visitorMessages,
    search_api: searchApi,
    search_page: searchPage,
  };
});

const r = results;
const verdict = (ok) => (ok ? 'met' : '**missed**');
const budgets = {
  js_gzip: verdict(r.loads.js_gzip_bytes <= 250 * KB),
  inbox_usable: verdict(r.loads.list_cold_ms.p50 <= 1500),
  switch: verdict(r.switches.p99 <= 200),
  visitor_message: verdict(
    r.visitor_messages.p99 <= 300 && r.visitor_messages.shown === r.visitor_messages.sent,
  ),
  search: verdict(r.search_api.p99 <= 200),
};
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (s) => `p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`;
const markdown = [
  `### Dashboard (${machine.cpus} × ${machine.cpu_model}, load ${machine.load_average_at_start.join(' ')}; ` +
    `${r.data.conversations} conversations, ${r.data.messages} messages seeded in ${r.data.seed_seconds} s; whole run ${Math.round((Date.now() - started) / 1000)} s)`,
  '',
  table(
    ['figure', 'measured', 'budget', ''],
    [
      ['JavaScript the inbox loads, gzip -9', kb(r.loads.js_gzip_bytes), '250 KB', budgets.js_gzip],
      [
        `inbox usable: navigation start to the first conversation drawn, cold (${r.loads.list_cold_ms.n} loads, fresh cache)`,
        `median ${r.loads.list_cold_ms.p50} ms, max ${r.loads.list_cold_ms.max} ms`,
        'median 1.5 s',
        budgets.inbox_usable,
      ],
      [
        `the same, reload with the cache warm (${r.loads.list_warm_ms.n} loads)`,
        `median ${r.loads.list_warm_ms.p50} ms, max ${r.loads.list_warm_ms.max} ms`,
        '',
        '',
      ],
      [
        `click on another conversation to its messages drawn (${r.switches.n} switches)`,
        ms(r.switches),
        'p99 200 ms',
        budgets.switch,
      ],
      [
        `visitor message (widget API) to its text drawn in the open conversation (${r.visitor_messages.shown}/${r.visitor_messages.sent} shown)`,
        ms(r.visitor_messages),
        'p99 300 ms',
        budgets.visitor_message,
      ],
      [
        `\`GET /api/agent/search\` answer (${r.search_api.n} queries, messages/visitors/tickets)`,
        ms(r.search_api),
        'p99 200 ms',
        budgets.search,
      ],
      [
        `search page: navigation start to its hits drawn (${r.search_page.n} loads)`,
        `median ${r.search_page.p50} ms, max ${r.search_page.max} ms`,
        '',
        '',
      ],
    ],
  ),
  '',
  'Search by type: ' +
    Object.entries(r.search_api.by_type)
      .map(([type, s]) => `${type} p50 ${s.p50} ms, p99 ${s.p99} ms`)
      .join('; '),
  '',
  'Inbox scripts (gzip -9): ' +
    r.loads.js_files.map((f) => `${f.name} ${kb(f.gzip_bytes)}`).join(', '),
].join('\n');
writeResults('dashboard', { machine, ...results }, markdown);
// A visitor message that never showed is lost in the dashboard: a failure, not a slow figure.
if (r.visitor_messages.shown < r.visitor_messages.sent) process.exitCode = 1;
