// npm run bench:api — the public API under load beside a raw node:http + pg baseline (and the
// same baseline running the service's two per-request auth statements, to show where the gap is).
// BENCH_CONVERSATIONS (100000) and BENCH_MESSAGES (1000000) size the data; BENCH_DURATION (10 s),
// BENCH_WARMUP (2 s) and BENCH_CONNECTIONS (20) shape each run; BENCH_SKIP_BUILD=1 skips the build.
import { checkSameAnswers } from './lib/check.mjs';
import { postmasterPid } from './lib/cpu.mjs';
import { CONNECTIONS, DURATION, endpoints, measure, WARMUP } from './lib/load.mjs';
import { log, ratio, table, withCleanup, writeResults } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import * as stack from './lib/stack.mjs';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const LISTS = [
  'GET /api/v1/conversations',
  'GET /api/v1/conversations/{id}/messages',
  'GET /api/v1/tickets?status=open',
];
const AUTH_BASELINE = 'baseline + auth statements';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const started = Date.now();
const machine = stack.machine();
if (process.env.BENCH_SKIP_BUILD !== '1') stack.build();

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_api');
  const org = stack.createOrganization(url);
  log(`seeding ${CONVERSATIONS} conversations, ${MESSAGES} messages`);
  const t = Date.now();
  const ids = await seed(url, org, {
    conversations: CONVERSATIONS,
    messagesPerConversation: MESSAGES / CONVERSATIONS,
  });
  const seedSeconds = (Date.now() - t) / 1000;

  const port = await stack.freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const start = async (promise) => {
    const server = await promise;
    track(() => server.stop());
    return server;
  };
  const auth = { authorization: `Bearer ${org.api_key}` };
  const servers = {
    service: { server: await start(stack.startService(url, publicUrl, port)), headers: auth },
    baseline: { server: await start(stack.startBaseline(url, publicUrl, org)), headers: {} },
    [AUTH_BASELINE]: {
      server: await start(stack.startBaseline(url, publicUrl, org, { authenticate: true })),
      headers: auth,
    },
  };
  const routes = endpoints(ids);
  await checkSameAnswers(routes, servers.service, servers.baseline);
  await checkSameAnswers(routes, servers.service, servers[AUTH_BASELINE]);
  const postmaster = postmasterPid(db.dataDir);

  await sleep(3000);
  const pid = (name) => servers[name].server.pid;
  const memory = {
    idle: { service: stack.rssMiB(pid('service')), baseline: stack.rssMiB(pid('baseline')) },
  };
  const rows = {};
  for (const [name, endpoint] of Object.entries(routes)) {
    rows[name] = {};
    for (const [label, { server, headers }] of Object.entries(servers)) {
      log(`${name}: ${label}`);
      rows[name][label] = await measure(server, endpoint, postmaster, headers);
    }
  }
  const peak = (label) => Math.max(...Object.values(rows).map((r) => r[label].rss_peak_mib));
  memory.load_peak = { service: peak('service'), baseline: peak('baseline') };
  await sleep(3000);
  memory.after_load = { service: stack.rssMiB(pid('service')) };
  return { seed_seconds: seedSeconds, visitors: ids.visitors, tickets: ids.tickets, rows, memory };
});

const { rows, memory } = results;
const targets = LISTS.map((name) => {
  const value = ratio(rows[name].service.rps, rows[name].baseline.rps);
  return { endpoint: name, ratio: value, met: value >= 0.6 };
});
const void_ = Object.entries(rows).flatMap(([name, r]) =>
  Object.entries(r)
    .filter(([, m]) => m.non2xx + m.errors > 0)
    .map(([label]) => `${name} (${label})`),
);

const markdown = [
  `## bench:api — ${new Date(started).toISOString()}`,
  '',
  `- Data: 1 organization, ${CONVERSATIONS} conversations, ${MESSAGES} messages, ${results.visitors} visitors, ${results.tickets} tickets (seeded in ${results.seed_seconds} s).`,
  `- Load: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per endpoint and server, 127.0.0.1 only; random conversation per request.`,
  `- Service: \`node dist/src/main.js\` with RATE_LIMIT_PER_MINUTE=${stack.RATE_LIMIT_PER_MINUTE} (so the limit never refuses; each request is still counted), LOG_LEVEL=warn, workers on; embedded PostgreSQL, default settings.`,
  `- Baseline: \`bench/baseline-server.mjs\`, node:http + pg, same SQL, same JSON, no authentication; "${AUTH_BASELINE}" adds the service's API-key lookup and rate-limit upsert.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}. The server, PostgreSQL and autocannon share the ${machine.cpus} cores (load average at start: ${machine.load_average_at_start.join(', ')}).`,
  '',
  table(
    [
      'endpoint',
      'server',
      'req/s',
      'vs baseline',
      'p50 ms',
      'p99 ms',
      'CPU ms/req: process',
      'CPU ms/req: PostgreSQL',
    ],
    Object.entries(rows).flatMap(([name, r]) =>
      Object.entries(r).map(([label, m]) => [
        `\`${name}\``,
        label,
        m.rps,
        ratio(m.rps, r.baseline.rps),
        m.p50_ms,
        m.p99_ms,
        m.cpu_ms_per_request.server,
        m.cpu_ms_per_request.postgres,
      ]),
    ),
  ),
  '',
  table(
    ['resident memory (VmRSS)', 'service MiB', 'baseline MiB'],
    [
      ['idle, before load', memory.idle.service, memory.idle.baseline],
      ['peak under load', memory.load_peak.service, memory.load_peak.baseline],
      ['3 s after load', memory.after_load.service, '–'],
    ],
  ),
  '',
  ...targets.map(
    (t) =>
      `- Target service ≥ 0.6 × baseline req/s, \`${t.endpoint}\`: ${t.ratio} — ${t.met ? 'met' : 'MISSED'}`,
  ),
  ...void_.map((name) => `- WARNING: ${name} had errors or non-2xx answers; its figures are void`),
  `- Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
].join('\n');

writeResults(
  'api',
  {
    machine,
    started_at: new Date(started).toISOString(),
    conversations: CONVERSATIONS,
    messages: MESSAGES,
    connections: CONNECTIONS,
    warmup_s: WARMUP,
    duration_s: DURATION,
    rate_limit_per_minute: stack.RATE_LIMIT_PER_MINUTE,
    ...results,
    targets,
  },
  markdown,
);
if (void_.length > 0) process.exitCode = 1;
