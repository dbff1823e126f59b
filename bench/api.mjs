// npm run bench:api — the public API under load beside a raw node:http + pg baseline (and the
// same baseline running the service's two per-request auth statements, to show where the gap is).
// BENCH_CONVERSATIONS (100000) and BENCH_MESSAGES (1000000) size the data; BENCH_DURATION (10 s),
// BENCH_WARMUP (2 s) and BENCH_CONNECTIONS (20,50: one pass at each) shape each run;
// BENCH_SKIP_BUILD=1 skips the build; BENCH_SMOKE=1 runs it small (bench/lib/smoke.mjs).
// BENCH_PROFILE=1 also counts the service's statements per request (pg_stat_statements) and
// writes its CPU profile and the baseline's (--cpu-prof) to bench/results/profiles;
// BENCH_ROUTES (a comma-separated list of route names, e.g. "GET /api/v1/conversations") limits
// the routes.
import path from 'node:path';
import { checkSameAnswers } from './lib/check.mjs';
import { CONNECTION_COUNTS, DURATION, endpoints, measure, WARMUP } from './lib/load.mjs';
import { log, ratio, table, withCleanup, writeResults } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import { setting, settle } from './lib/smoke.mjs';
import { statementCounter } from './lib/statements.mjs';
import * as stack from './lib/stack.mjs';
import { sleep } from './lib/stats.mjs';

const CONVERSATIONS = setting('BENCH_CONVERSATIONS', 100_000, 50);
const MESSAGES = setting('BENCH_MESSAGES', 1_000_000, 500);
const LISTS = [
  'GET /api/v1/conversations',
  'GET /api/v1/conversations/{id}/messages',
  'GET /api/v1/tickets?status=open',
];
const AUTH_BASELINE = 'baseline + auth statements';
const PROFILE = process.env.BENCH_PROFILE === '1';
const ONLY = process.env.BENCH_ROUTES?.split(',');
// Issue 33: every list route ≥ 0.9 of the baseline and the reply ≥ 0.8, at each connection
// count, with p99 at most 1.25 × the baseline's own p99 (lists).
const LIST_TARGET = 0.9;
const POST_TARGET = 0.8;
const LIST_P99_OF_BASELINE = 1.25;
const PROFILES = path.join(stack.ROOT, 'bench', 'results', 'profiles');
const IDLE_SECONDS = setting('BENCH_IDLE_SECONDS', 60, 0);
/** Issue 20: "idle RSS at most 120 MB (today 152 MB)", where 152 was this table's MiB. */
const IDLE_RSS_TARGET = 120;

/** The idle target in both readings of "MB": MiB, as the issue's 152 was, and 10^6 bytes. */
function idleTargetLine(memory) {
  const mib = memory.idle_settled.service;
  const mb = Math.round(mib * 1.048576 * 10) / 10;
  const verdict = (value) => (value <= IDLE_RSS_TARGET ? 'met' : 'MISSED');
  return `- Target idle RSS ≤ ${IDLE_RSS_TARGET} MB: ${mib} MiB = ${mb} MB (10^6 bytes) after ${IDLE_SECONDS} s without requests (${memory.idle.service} MiB 3 s after start-up) — ${verdict(mib)} read as MiB (the unit of the issue's 152), ${verdict(mb)} read as 10^6 bytes`;
}

/** The service's statements (every one but this counter's own), from pg_stat_statements. */
const started = Date.now();
const machine = stack.machine();
stack.build();

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase({ statements: PROFILE });
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
  // Node refuses --cpu-prof in NODE_OPTIONS. The baseline is profiled too, to compare stage by
  // stage (bench/README.md).
  const profileArgs = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILES}`] : [];
  const servers = {
    service: {
      server: await start(stack.startService(url, publicUrl, port, {}, profileArgs)),
      headers: auth,
    },
    baseline: {
      server: await start(stack.startBaseline(url, publicUrl, org, { nodeArgs: profileArgs })),
      headers: {},
    },
    [AUTH_BASELINE]: {
      server: await start(stack.startBaseline(url, publicUrl, org, { authenticate: true })),
      headers: auth,
    },
  };
  const routes = Object.fromEntries(
    Object.entries(endpoints(ids)).filter(([name]) => !ONLY || ONLY.includes(name)),
  );
  await checkSameAnswers(routes, servers.service, servers.baseline);
  await checkSameAnswers(routes, servers.service, servers[AUTH_BASELINE]);
  const postmaster = db.postmasterPid;

  await settle(3000);
  const pid = (name) => servers[name].server.pid;
  const memory = {
    idle: { service: stack.rssMiB(pid('service')), baseline: stack.rssMiB(pid('baseline')) },
  };
  // Issue 20's idle RSS: an instance nobody has called for a minute. V8 keeps the young
  // generation its start-up grew, and the garbage of start-up, until its memory reducer runs on
  // an idle heap (about 20-30 s after start here); the figure 3 s after start shows that too.
  log(`idle: ${IDLE_SECONDS} s without requests`);
  await sleep(IDLE_SECONDS * 1000);
  memory.idle_settled = {
    service: stack.rssMiB(pid('service')),
    baseline: stack.rssMiB(pid('baseline')),
  };
  const statements = PROFILE ? await statementCounter(url) : undefined;
  const passes = {};
  for (const connections of CONNECTION_COUNTS) {
    const rows = (passes[connections] = {});
    for (const [name, endpoint] of Object.entries(routes)) {
      rows[name] = {};
      for (const [label, { server, headers }] of Object.entries(servers)) {
        log(`${connections} connections, ${name}: ${label}`);
        await statements?.reset();
        rows[name][label] = await measure(server, endpoint, postmaster, headers, connections);
        if (statements && label === 'service') {
          rows[name][label].statements = await statements.perRequest(rows[name][label].requests);
        }
      }
    }
  }
  await statements?.close();
  const all = Object.values(passes).flatMap((rows) => Object.values(rows));
  const peak = (label) => Math.max(...all.map((r) => r[label].rss_peak_mib));
  memory.load_peak = { service: peak('service'), baseline: peak('baseline') };
  await settle(3000);
  memory.after_load = { service: stack.rssMiB(pid('service')) };
  return {
    seed_seconds: seedSeconds,
    visitors: ids.visitors,
    tickets: ids.tickets,
    passes,
    memory,
  };
});

const { passes, memory } = results;
const targets = Object.entries(passes).flatMap(([connections, rows]) =>
  Object.entries(rows).map(([name, r]) => {
    const list = LISTS.includes(name);
    const value = ratio(r.service.rps, r.baseline.rps);
    const minimum = list ? LIST_TARGET : POST_TARGET;
    const p99 = list ? Math.round(r.baseline.p99_ms * LIST_P99_OF_BASELINE * 100) / 100 : undefined;
    return {
      connections: Number(connections),
      endpoint: name,
      ratio: value,
      minimum,
      p99_ms: r.service.p99_ms,
      p99_max_ms: p99,
      met: value >= minimum && (p99 === undefined || r.service.p99_ms <= p99),
    };
  }),
);
const void_ = Object.entries(passes).flatMap(([connections, rows]) =>
  Object.entries(rows).flatMap(([name, r]) =>
    Object.entries(r)
      .filter(([, m]) => m.non2xx + m.errors > 0)
      .map(([label]) => `${name} (${label}, ${connections} connections)`),
  ),
);

const markdown = [
  `## bench:api — ${new Date(started).toISOString()}`,
  '',
  `- Data: 1 organization, ${CONVERSATIONS} conversations, ${MESSAGES} messages, ${results.visitors} visitors, ${results.tickets} tickets (seeded in ${results.seed_seconds} s).`,
  `- Load: autocannon, ${CONNECTION_COUNTS.join(' then ')} connections, ${WARMUP} s warm-up + ${DURATION} s per endpoint and server, 127.0.0.1 only; random conversation per request.`,
  `- Service: \`node dist/src/main.js\` with RATE_LIMIT_PER_MINUTE=${stack.RATE_LIMIT_PER_MINUTE} (so the limit never refuses; each request is still counted), LOG_LEVEL=warn, workers on; embedded PostgreSQL, default settings.`,
  `- Baseline: \`bench/baseline-server.mjs\`, node:http + pg, same SQL, same JSON, no authentication; "${AUTH_BASELINE}" adds the service's API-key lookup and rate-limit upsert.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}. The server, PostgreSQL and autocannon share the ${machine.cpus} cores (load average at start: ${machine.load_average_at_start.join(', ')}).`,
  '',
  table(
    [
      'connections',
      'endpoint',
      'server',
      'req/s',
      'vs baseline',
      'p50 ms',
      'p99 ms',
      'CPU ms/req: process',
      'CPU ms/req: PostgreSQL',
      ...(PROFILE ? ['statements/req'] : []),
    ],
    Object.entries(passes).flatMap(([connections, rows]) =>
      Object.entries(rows).flatMap(([name, r]) =>
        Object.entries(r).map(([label, m]) => [
          connections,
          `\`${name}\``,
          label,
          m.rps,
          ratio(m.rps, r.baseline.rps),
          m.p50_ms,
          m.p99_ms,
          m.cpu_ms_per_request.server,
          m.cpu_ms_per_request.postgres,
          ...(PROFILE ? [m.statements?.total ?? ''] : []),
        ]),
      ),
    ),
  ),
  '',
  table(
    ['resident memory (VmRSS)', 'service MiB', 'baseline MiB'],
    [
      ['3 s after start-up, before load', memory.idle.service, memory.idle.baseline],
      [
        `idle: ${IDLE_SECONDS} s without requests`,
        memory.idle_settled.service,
        memory.idle_settled.baseline,
      ],
      ['peak under load', memory.load_peak.service, memory.load_peak.baseline],
      ['3 s after load', memory.after_load.service, '–'],
    ],
  ),
  '',
  ...targets.map(
    (t) =>
      `- Target at ${t.connections} connections, \`${t.endpoint}\`: ≥ ${t.minimum} × baseline req/s${t.p99_max_ms ? ` and p99 ≤ ${t.p99_max_ms} ms (1.25 × the baseline's)` : ''}: ${t.ratio}${t.p99_max_ms ? `, p99 ${t.p99_ms} ms` : ''} — ${t.met ? 'met' : 'MISSED'}`,
  ),
  idleTargetLine(memory),
  ...(PROFILE
    ? [
        '',
        'Service statements per request (pg_stat_statements, calls ÷ requests, ≥ 0.01):',
        ...Object.entries(passes).flatMap(([connections, rows]) =>
          Object.entries(rows).map(
            ([name, r]) =>
              `- ${connections} connections, \`${name}\`: ${r.service.statements.total} — ${r.service.statements.top.map((t) => `${t.per_request} × \`${t.query}\``).join('; ')}`,
          ),
        ),
        `- CPU profiles of the service: ${PROFILES}`,
      ]
    : []),
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
    connections: CONNECTION_COUNTS,
    warmup_s: WARMUP,
    duration_s: DURATION,
    rate_limit_per_minute: stack.RATE_LIMIT_PER_MINUTE,
    ...results,
    targets,
  },
  markdown,
);
if (void_.length > 0) process.exitCode = 1;
