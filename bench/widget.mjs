// npm run bench:widget — the chat widget's budgets (issue 18), in headless Chromium (Debian's
// /usr/bin/chromium, or CHROMIUM_PATH) against the built service on an embedded PostgreSQL:
// - the loader's and the open widget's bytes (gzip -9 of every file the frame loads);
// - the time from the loader arriving to the launcher being drawn (BENCH_WIDGET_LOADS page loads);
// - main-thread tasks of 50 ms or more on the host page, during load and opening the chat;
// - the delay from a visitor message to the agent's socket with BENCH_WIDGET_VISITORS (200)
//   widget sessions open (each an init plus a `/widget` socket, as the frame holds them: the
//   browser side is measured above, the many sessions are Socket.IO clients in this process).
// `--screenshots` also writes docs/widget-desktop.png and docs/widget-phone.png.
// BENCH_SKIP_BUILD=1 skips the builds; BENCH_SMOKE=1 runs it small (bench/lib/smoke.mjs).
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting, settle } from './lib/smoke.mjs';
import { connect } from './lib/sockets.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const LOADS = setting('BENCH_WIDGET_LOADS', 20, 1);
const VISITORS = setting('BENCH_WIDGET_VISITORS', 200, 5);
const MESSAGES_PER_VISITOR = setting('BENCH_WIDGET_MESSAGES', 5, 1);
const RATE = setting('BENCH_WIDGET_RATE', 50);
const SCREENSHOTS = process.argv.includes('--screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KIB = 1024;
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;

const machine = stack.machine();
stack.build({ web: true });

/** A host site on another origin (`localhost` while the service is `127.0.0.1`). */
function hostSite(service, widgetKey) {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<script>
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration)); })
  .observe({ type: 'longtask', buffered: true });
// When the launcher's element enters the page and is drawn (the next frame after it).
new MutationObserver((_, observer) => {
  if (!document.querySelector('[data-support-chat]')) return;
  observer.disconnect();
  requestAnimationFrame(() => setTimeout(() => { window.__launcherAt = performance.now(); }));
}).observe(document.documentElement, { childList: true, subtree: true });
</script></head>
<body><main style="font:16px system-ui;max-width:40rem;margin:3rem auto"><h1>Acme Shop</h1>
<p>Hand-made ceramics, shipped worldwide. Questions about an order? Ask us in the chat.</p></main>
<script async src="${service}/widget.js" data-widget-key="${widgetKey}"></script>
</body></html>`;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://localhost:${server.address().port}/`,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

async function json(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function measureBrowser(service, org, context) {
  const site = await hostSite(service, org.site.widget_key);
  try {
    const launch = [];
    const longTasks = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await context.newPage();
      await page.goto(site.url);
      await page.waitForFunction(() => window.__launcherAt !== undefined, null, {
        timeout: 10_000,
      });
      launch.push(
        await page.evaluate(() => {
          const loader = performance
            .getEntriesByType('resource')
            .find((entry) => entry.name.endsWith('/widget.js'));
          return window.__launcherAt - loader.responseEnd;
        }),
      );
      await page.close();
    }

    // One load with the chat opened: every file the frame loads, and the host page's long tasks.
    const page = await context.newPage();
    const files = new Map();
    page.on('response', async (response) => {
      const url = response.url();
      if (!url.startsWith(service) || url.includes('/api/') || url.includes('/socket.io/')) return;
      try {
        files.set(new URL(url).pathname, await response.body());
      } catch {
        // A redirect or an aborted request has no body.
      }
    });
    await page.goto(site.url);
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.click();
    await page
      .frameLocator('iframe[title="Chat"]')
      .getByRole('textbox', { name: 'Message' })
      .waitFor({ timeout: 15_000 });
    // The host page's long tasks of the frame's start-up, which goes on after the box shows.
    await settle(2000);
    longTasks.push(...(await page.evaluate(() => window.__longTasks)));
    await page.close();
    const loaderGz = gz(files.get('/widget.js') ?? Buffer.alloc(0));
    const frameFiles = [...files.entries()].filter(([name]) => name !== '/widget.js');
    const openGz = frameFiles.reduce((sum, [, body]) => sum + gz(body), 0);
    return {
      loader_gzip_bytes: loaderGz,
      open_widget_gzip_bytes: loaderGz + openGz,
      open_widget_files: frameFiles.map(([name, body]) => ({ name, gzip_bytes: gz(body) })),
      launcher_ms: {
        p50: round(percentile(launch, 50)),
        p95: round(percentile(launch, 95)),
        max: round(Math.max(...launch)),
      },
      host_long_tasks_ms: longTasks,
    };
  } finally {
    await site.close();
  }
}

async function measureLatency(service, agentToken, widgetKey) {
  const agent = await connect(service, '/agent', agentToken);
  const sent = new Map();
  const delays = [];
  agent.on('message.created', (message) => {
    const at = sent.get(message.body);
    if (at !== undefined) delays.push(performance.now() - at);
  });
  log(`opening ${VISITORS} widget sessions`);
  const visitors = [];
  for (let i = 0; i < VISITORS; i++) {
    const init = await json(`${service}/api/widget/init`, { widget_key: widgetKey });
    visitors.push(await connect(service, '/widget', init.session_token));
  }
  const total = VISITORS * MESSAGES_PER_VISITOR;
  log(`${total} visitor messages at ${RATE}/s`);
  const acks = [];
  for (let n = 0; n < total; n++) {
    const body = `bench message ${n}`;
    sent.set(body, performance.now());
    acks.push(visitors[n % VISITORS].timeout(30_000).emitWithAck('message', { body }));
    await sleep(1000 / RATE);
  }
  const answers = await Promise.allSettled(acks);
  const deadline = Date.now() + 30_000;
  while (delays.length < total && Date.now() < deadline) await sleep(100);
  for (const socket of visitors) socket.close();
  agent.close();
  return {
    open_widgets: VISITORS,
    messages: total,
    refused: answers.filter((a) => a.status === 'rejected' || !a.value?.status).length,
    received: delays.length,
    p50_ms: round(percentile(delays, 50)),
    p99_ms: round(percentile(delays, 99)),
    max_ms: round(Math.max(...delays)),
  };
}

async function screenshots(service, org, agentToken) {
  const site = await hostSite(service, org.site.widget_key);
  const agent = await connect(service, '/agent', agentToken);
  const shots = [
    ['widget-desktop.png', { viewport: { width: 1280, height: 800 } }],
    ['widget-phone.png', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const [file, options] of shots) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await page.goto(site.url);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const frame = page.frameLocator('iframe[title="Chat"]');
      const box = frame.getByRole('textbox', { name: 'Message' });
      await box.fill('Hi! Has my order #1042 shipped yet?');
      await box.press('Enter');
      const [message] = await new Promise((resolve) =>
        agent.once('message.created', (...args) => resolve(args)),
      );
      const reply = await fetch(
        `${service}/api/agent/conversations/${message.conversation_id}/messages`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${agentToken}` },
          body: JSON.stringify({
            body: 'Hello! Yes, it left our studio this morning and should arrive on Thursday.',
          }),
        },
      );
      if (!reply.ok) throw new Error(`agent reply: ${reply.status}`);
      await frame.getByText('should arrive on Thursday').waitFor();
      await agent
        .timeout(5000)
        .emitWithAck('read', { conversation_id: message.conversation_id, message_id: message.id });
      await sleep(500);
      await page.screenshot({ path: path.join(stack.ROOT, 'docs', file) });
      log(`written docs/${file}`);
      await context.close();
    }
  } finally {
    await browser.close();
    agent.close();
    await site.close();
  }
}

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_widget');
  const port = await stack.freePort();
  const service = `http://127.0.0.1:${port}`;
  const server = await stack.startService(url, service, port);
  track(() => server.stop());
  // Signed up over HTTP as an owner would; online, so the widget offers the chat.
  const org = await json(`${service}/api/agent/auth/register`, {
    organization_name: 'Acme Shop',
    name: 'Olivia Owner',
    email: `owner-${Date.now()}@bench.example`,
    password: `pw-${Date.now()}-bench`,
  });
  const login = { token: org.token };
  const presence = await fetch(`${service}/api/agent/presence`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
    body: JSON.stringify({ status: 'online' }),
  });
  if (!presence.ok) throw new Error(`presence: ${presence.status}`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  track(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  log(`browser: ${LOADS} page loads, then one with the chat opened`);
  const browserFigures = await measureBrowser(service, org, context);
  await context.close();
  if (SCREENSHOTS) await screenshots(service, org, login.token);
  const latency = await measureLatency(service, login.token, org.site.widget_key);
  return { browser: browserFigures, latency };
});

const b = results.browser;
const l = results.latency;
const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;
const markdown = [
  `### Widget (${machine.cpus} × ${machine.cpu_model}, load ${machine.load_average_at_start.join(' ')})`,
  '',
  table(
    ['figure', 'measured', 'budget'],
    [
      ['loader (widget.js), gzip', kib(b.loader_gzip_bytes), '4 KiB'],
      [
        'open widget, everything loaded (loader, frame, JS, CSS), gzip',
        kib(b.open_widget_gzip_bytes),
        '60 KiB',
      ],
      [
        `launcher drawn after widget.js arrived (${LOADS} loads)`,
        `p50 ${b.launcher_ms.p50} ms, p95 ${b.launcher_ms.p95} ms, max ${b.launcher_ms.max} ms`,
        '150 ms',
      ],
      [
        'host page main-thread tasks ≥ 50 ms (load and opening the chat)',
        b.host_long_tasks_ms.length === 0 ? 'none' : b.host_long_tasks_ms.join(', ') + ' ms',
        'none',
      ],
      [
        `visitor message to the agent's socket, ${l.open_widgets} widgets open (${l.received}/${l.messages} received)`,
        `p50 ${l.p50_ms} ms, p99 ${l.p99_ms} ms, max ${l.max_ms} ms`,
        'p99 300 ms',
      ],
    ],
  ),
  '',
  'Open widget files (gzip -9): ' +
    b.open_widget_files.map((f) => `${f.name} ${kib(f.gzip_bytes)}`).join(', '),
  '',
  'For comparison (their own published figures): Chatwoot ~170 KiB over the wire (300 KB budget), Intercom 182 KB gzipped.',
].join('\n');
writeResults('widget', { machine, ...results }, markdown);
// A refused or lost visitor message is a failure, not a slow figure.
if (l.refused > 0 || l.received < l.messages) process.exitCode = 1;
