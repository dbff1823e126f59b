// npm run bench:growth — the list routes at 10 000, 100 000 and 1 000 000 messages (10 per
// conversation), service and raw baseline, plus EXPLAIN ANALYZE of the service's statements at
// each size. BENCH_GROWTH_MESSAGES (comma-separated) changes the sizes; BENCH_DURATION,
// BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_SKIP_BUILD and BENCH_SMOKE as for bench:api (a smoke run
// measures one size).
import { checkSameAnswers } from './lib/check.mjs';
import { explainLists } from './lib/explain.mjs';
import { CONNECTIONS, DURATION, endpoints, measure, WARMUP } from './lib/load.mjs';
import { log, ratio, table, withCleanup, writeResults } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import { setting } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';

const SIZES = setting('BENCH_GROWTH_MESSAGES', '10000,100000,1000000', '500')
  .split(',')
  .map(Number);
const PER_CONVERSATION = 10;
const LISTS = [
  'GET /api/v1/conversations',
  'GET /api/v1/conversations/{id}/messages',
  'GET /api/v1/tickets?status=open',
];

const started = Date.now();
const machine = stack.machine();
stack.build();

/** One size: its own database and service; both stopped (and the database dropped) after. */
async function atSize(db, messages) {
  const name = `bench_growth_${messages}`;
  const url = await stack.createDatabase(db.adminUrl, name);
  const org = stack.createOrganization(url);
  log(`${messages} messages: seeding`);
  const ids = await seed(url, org, {
    conversations: messages / PER_CONVERSATION,
    messagesPerConversation: PER_CONVERSATION,
  });
  const plans = await explainLists(url, org.organization.id, ids.conversationIds[0]);
  const port = await stack.freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const service = await stack.startService(url, publicUrl, port);
  const baseline = await stack.startBaseline(url, publicUrl, org).catch(async (error) => {
    await service.stop();
    throw error;
  });
  try {
    const auth = { authorization: `Bearer ${org.api_key}` };
    const all = endpoints(ids);
    const routes = Object.fromEntries(LISTS.map((route) => [route, all[route]]));
    await checkSameAnswers(
      routes,
      { server: service, headers: auth },
      { server: baseline, headers: {} },
    );
    const postmaster = db.postmasterPid;
    const rows = {};
    for (const [route, endpoint] of Object.entries(routes)) {
      log(`${messages} messages: ${route}`);
      rows[route] = {
        service: await measure(service, endpoint, postmaster, auth),
        baseline: await measure(baseline, endpoint, postmaster),
      };
    }
    return { messages, conversations: messages / PER_CONVERSATION, rows, plans };
  } finally {
    await service.stop();
    await baseline.stop();
    await stack.dropDatabase(db.adminUrl, name);
  }
}

const sizes = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const measured = [];
  for (const messages of SIZES) measured.push(await atSize(db, messages));
  return measured;
});

const first = sizes[0];
const last = sizes.at(-1);
const growth = LISTS.map((route) => {
  const factor = (label, key) => ratio(last.rows[route][label][key], first.rows[route][label][key]);
  const p50 = factor('service', 'p50_ms');
  return {
    endpoint: route,
    service_p50: p50,
    service_mean: factor('service', 'mean_ms'),
    baseline_p50: factor('baseline', 'p50_ms'),
    met: p50 !== null && p50 <= 1.5,
  };
});
const fmt = (n) => n.toLocaleString('en-US');
const void_ = sizes.flatMap((size) =>
  Object.entries(size.rows).flatMap(([route, r]) =>
    Object.entries(r)
      .filter(([, m]) => m.non2xx + m.errors > 0)
      .map(([label]) => `${route} (${label}, ${fmt(size.messages)} messages)`),
  ),
);

const markdown = [
  `## bench:growth — ${new Date(started).toISOString()}`,
  '',
  `- Sizes: ${SIZES.map(fmt).join(', ')} messages, ${PER_CONVERSATION} per conversation (1 ticket per 10 conversations), one organization, a fresh database and service per size.`,
  `- Load: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per route and server, 127.0.0.1 only. Service with RATE_LIMIT_PER_MINUTE=${stack.RATE_LIMIT_PER_MINUTE}, LOG_LEVEL=warn; baseline as in bench:api (no authentication).`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}; server, PostgreSQL and autocannon share the cores (load average at start: ${machine.load_average_at_start.join(', ')}).`,
  '',
  table(
    [
      'route',
      'messages',
      'service req/s',
      'service p50 / p99 ms',
      'baseline req/s',
      'baseline p50 / p99 ms',
      'PostgreSQL CPU ms/req (service)',
    ],
    LISTS.flatMap((route) =>
      sizes.map((size) => {
        const { service: s, baseline: b } = size.rows[route];
        return [
          `\`${route}\``,
          fmt(size.messages),
          s.rps,
          `${s.p50_ms} / ${s.p99_ms}`,
          b.rps,
          `${b.p50_ms} / ${b.p99_ms}`,
          s.cpu_ms_per_request.postgres,
        ];
      }),
    ),
  ),
  '',
  `Growth from ${fmt(first.messages)} to ${fmt(last.messages)} messages (latency there ÷ latency here):`,
  '',
  table(
    ['route', 'service p50', 'service mean', 'baseline p50', 'target ≤ 1.5'],
    growth.map((g) => [
      `\`${g.endpoint}\``,
      g.service_p50,
      g.service_mean,
      g.baseline_p50,
      g.met ? 'met' : 'MISSED',
    ]),
  ),
  '',
  'The service’s statements, EXPLAIN ANALYZE execution time in ms (warm), and the access path at the largest size:',
  '',
  table(
    [
      'statement',
      ...sizes.map((size) => fmt(size.messages)),
      `access path at ${fmt(last.messages)}`,
    ],
    Object.keys(last.plans).map((statement) => [
      statement,
      ...sizes.map((size) => size.plans[statement].execution_ms),
      last.plans[statement].access,
    ]),
  ),
  '',
  ...void_.map((name) => `- WARNING: ${name} had errors or non-2xx answers; its figures are void`),
  `- Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
].join('\n');

writeResults(
  'growth',
  {
    machine,
    started_at: new Date(started).toISOString(),
    connections: CONNECTIONS,
    warmup_s: WARMUP,
    duration_s: DURATION,
    sizes,
    growth,
  },
  markdown,
);
if (void_.length > 0) process.exitCode = 1;
