// npm run bench:metrics — issue 31's two figures for `/metrics`:
// 1. a scrape at BENCH_SOCKETS (1 000) open Socket.IO connections, timed BENCH_SCRAPES (50) times
//    from the client (target: ≤ 50 ms), with the service's background reads of its queues every
//    second meeting them. The service has 4 queues; six more are created beside them (with jobs)
//    and the collector's exact reads of all 10 (the background read's time) are timed from here;
// 2. what counting requests costs: bench:api's routes on two HTTP-only instances of the service
//    on one database (a third runs the workers), one with METRICS_TOKEN (metrics on) and one
//    without (metrics off: no observer, the route a 404), measured alternately for BENCH_ROUNDS
//    (3) rounds beside the raw baseline (target: on ≥ 0.97 × off), with the CPU each request
//    costs the service process.
// BENCH_CONVERSATIONS (10000) and BENCH_MESSAGES (100000) size the data, BENCH_DURATION and
// BENCH_WARMUP each load run (bench/lib/load.mjs), BENCH_ROUTES (all four; in a smoke run one read
// and the reply) limits the routes as for bench:api, BENCH_REDIS=1 puts the queues on Redis,
// BENCH_SKIP_BUILD=1 skips the build; BENCH_SMOKE=1 runs one small round (bench/lib/smoke.mjs);
// BENCH_ONLY=observer times the request observer alone (the only per-request work metrics add)
// and stops.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createPostgresBackend, Queue, setDefaultBackendFactory } from 'bullmq';
import { cpuMeter } from './lib/cpu.mjs';
import { CONNECTIONS, DURATION, endpoints, measure, WARMUP } from './lib/load.mjs';
import { log, ratio, startTogether, table, withCleanup, writeResults } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import { setting, settle } from './lib/smoke.mjs';
import { connect } from './lib/sockets.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const SOCKETS = setting('BENCH_SOCKETS', 1000, 10);
const SCRAPES = setting('BENCH_SCRAPES', 50, 3);
const ROUNDS = setting('BENCH_ROUNDS', 3, 1);
const OBSERVER_CALLS = setting('BENCH_OBSERVER_CALLS', 1_000_000, 10_000);
const ROUTES = setting(
  'BENCH_ROUTES',
  '',
  'GET /api/v1/conversations,POST /api/v1/conversations/{id}/messages',
);
const CONVERSATIONS = setting('BENCH_CONVERSATIONS', 10_000, 50);
const MESSAGES = setting('BENCH_MESSAGES', 100_000, 500);
const REDIS = process.env.BENCH_REDIS === '1';
const TOKEN = 'bench-metrics-token-0123456789abcdef';
const SERVICE_QUEUES = ['missed-chats', 'webhook-deliveries', 'outgoing-mail', 'conversation-mail'];
const EXTRA_QUEUES = Array.from({ length: 10 - SERVICE_QUEUES.length }, (_, i) => `bench-${i}`);
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'];
const FAILED_LABELS = 'queue="missed-chats",state="failed"';
const SCRAPE_TARGET_MS = 50;
const COST_TARGET = 0.97;

async function inParallel(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/**
 * `SCRAPES` scrapes one after another: client-side milliseconds, the CPU milliseconds each cost
 * the service and PostgreSQL (read from /proc: other work on the machine does not change them),
 * and the body of the last.
 */
async function scrapes(server, postmaster) {
  const cpu = cpuMeter(server.pid, postmaster);
  const times = [];
  let body = '';
  for (let i = 0; i < SCRAPES; i++) {
    const at = performance.now();
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    body = await response.text();
    if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
    times.push(performance.now() - at);
  }
  const used = cpu.perRequest(SCRAPES);
  return { ...summary(times), cpu_ms: { service: used.server, postgres: used.postgres }, body };
}

function summary(times) {
  return {
    p50_ms: round(percentile(times, 50)),
    p99_ms: round(percentile(times, 99)),
    max_ms: round(Math.max(...times)),
  };
}

const gauge = (body, name, labels) => {
  const line = body.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : undefined;
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The only work metrics add to a request, alone: the compiled request observer (route template and
 * one histogram observation) called BENCH_OBSERVER_CALLS (a million) times in this process, in CPU
 * microseconds per call (process.cpuUsage: what other work on the machine takes is not counted).
 */
function observerCost() {
  const require = createRequire(import.meta.url);
  const dist = (file) => require(path.join(stack.ROOT, 'dist', 'src', 'common', 'metrics', file));
  const { MetricsRegistry } = dist('metrics-registry.js');
  const { requestObserver } = dist('request-observer.js');
  const observe = requestObserver(new MetricsRegistry({ env: { METRICS_TOKEN: TOKEN } }));
  const routes = ['/conversations', '/conversations/:conversation/messages', '/tickets'];
  const requests = routes.map((route) => ({
    method: 'GET',
    baseUrl: '/api/v1',
    route: { path: route },
  }));
  const responses = [{ statusCode: 200 }, { statusCode: 201 }, { statusCode: 404 }];
  const run = (count) => {
    for (let i = 0; i < count; i++)
      observe(requests[i % 3], responses[i % 7 === 0 ? 2 : i % 2], i % 40);
  };
  run(OBSERVER_CALLS / 5);
  const before = process.cpuUsage();
  run(OBSERVER_CALLS);
  const used = process.cpuUsage(before);
  return round((used.user + used.system) / OBSERVER_CALLS, 2);
}

const started = Date.now();
const machine = stack.machine();
stack.build();
const observeMicros = observerCost();
log(`request observer: ${observeMicros} µs of CPU per request`);
if (process.env.BENCH_ONLY === 'observer') process.exit(0);

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const redis = REDIS ? await stack.startRedis() : undefined;
  if (redis) track(() => redis.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_metrics');
  const org = stack.createOrganization(url);
  log(`seeding ${CONVERSATIONS} conversations, ${MESSAGES} messages`);
  const ids = await seed(url, org, {
    conversations: CONVERSATIONS,
    messagesPerConversation: MESSAGES / CONVERSATIONS,
  });

  const start = (port, env) =>
    stack.startService(url, `http://127.0.0.1:${port}`, port, {
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...env,
    });
  // The two measured instances serve HTTP only; a third runs every worker, so the background work
  // that POST's events and jobs cause falls on neither of them (it went to whichever instance's
  // workers won each claim, which skewed the CPU per request of the one started first).
  const ports = await stack.freePorts(3);
  const [on, off] = await startTogether(track, [
    // Its background reads of the queues every second (5 by default), so the scrapes below meet
    // them.
    start(ports[0], {
      METRICS_TOKEN: TOKEN,
      METRICS_SAMPLE_SECONDS: '1',
      WORKERS_ENABLED: 'false',
    }),
    start(ports[1], { WORKERS_ENABLED: 'false' }),
    start(ports[2], {}),
  ]);
  const baseline = await stack.startBaseline(url, on.url, org);
  track(() => baseline.stop());
  const postmaster = db.postmasterPid;

  // The cost first, while both instances are alike (the sockets and scrapes below would leave the
  // one with metrics on with more to clean up).
  const auth = { authorization: `Bearer ${org.api_key}` };
  const routes = Object.fromEntries(
    Object.entries(endpoints(ids)).filter(([name]) => !ROUTES || ROUTES.split(',').includes(name)),
  );
  const passes = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['metrics on', 'metrics off'] : ['metrics off', 'metrics on'];
    const row = {};
    for (const [name, endpoint] of Object.entries(routes)) {
      row[name] = {};
      for (const label of [...order, 'baseline']) {
        log(`round ${r + 1}/${ROUNDS}, ${name}: ${label}`);
        const server = label === 'baseline' ? baseline : label === 'metrics on' ? on : off;
        row[name][label] = await measure(
          server,
          endpoint,
          postmaster,
          label === 'baseline' ? {} : auth,
          CONNECTIONS,
        );
      }
    }
    passes.push(row);
  }
  // Queues with something in them: delayed jobs that will not come due, failed ones, and the six
  // extra queues (no worker: their jobs wait).
  if (!redis) setDefaultBackendFactory(createPostgresBackend);
  const connection = redis ? { url: redis.url } : { connectionString: url };
  const queues = [...SERVICE_QUEUES, ...EXTRA_QUEUES].map(
    (name) => new Queue(name, { connection }),
  );
  track(() => Promise.all(queues.map((queue) => queue.close())));
  for (const queue of queues) {
    const extra = EXTRA_QUEUES.includes(queue.name);
    await queue.addBulk(
      Array.from({ length: 200 }, (_, i) => ({
        name: 'bench',
        data: { organizationId: 'x', conversationId: 'y' },
        opts: extra && i % 2 === 0 ? {} : { delay: 3_600_000 },
      })),
    );
  }
  const brokenJobs = await queues[0].addBulk(
    Array.from({ length: 20 }, () => ({ name: 'broken', data: { organizationId: 'x' } })),
  );
  const failing = Date.now() + 60_000;
  for (const job of brokenJobs) {
    while ((await job.getState()) !== 'failed') {
      if (Date.now() > failing) throw new Error(`the broken job ${job.id} did not fail in 60 s`);
      await sleep(50);
    }
  }

  log('scrapes with no socket open');
  const idle = await scrapes(on, postmaster);
  delete idle.body;

  log(`${SOCKETS} widget sessions and sockets`);
  const sessions = await inParallel(SOCKETS, 20, async () => {
    const response = await fetch(`${on.url}/api/widget/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ widget_key: org.site.widget_key }),
    });
    if (!response.ok) throw new Error(`widget init answered ${response.status}`);
    return (await response.json()).session_token;
  });
  const sockets = await inParallel(SOCKETS, 50, (i) => connect(on.url, '/widget', sessions[i]));
  track(async () => sockets.forEach((socket) => socket.close()));
  // The collector reads the queues in the background: the scrapes below are to expose the failed
  // jobs, so wait for a read that saw them.
  const exposing = Date.now() + 30_000;
  for (;;) {
    const body = await fetch(`${on.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((response) => response.text());
    if (gauge(body, 'scs_queue_jobs', FAILED_LABELS) >= brokenJobs.length) break;
    if (Date.now() > exposing) throw new Error(`/metrics did not show the failed jobs:\n${body}`);
    await sleep(100);
  }
  await settle(2000);
  log(`${SCRAPES} scrapes at ${SOCKETS} sockets`);
  const loaded = await scrapes(on, postmaster);
  const seenSockets = gauge(loaded.body, 'scs_socket_connections', 'namespace="/widget"');
  const failedSeen = gauge(loaded.body, 'scs_queue_jobs', FAILED_LABELS);
  const scrapeBytes = loaded.body.length;
  delete loaded.body;

  log('the collector reads of 10 queues, from here');
  const tenQueues = [];
  for (let i = 0; i < SCRAPES; i++) {
    const at = performance.now();
    await Promise.all(
      queues.map((queue) =>
        Promise.all([queue.getJobCounts(...QUEUE_STATES), queue.getJobs(['waiting'], 0, 0, true)]),
      ),
    );
    tenQueues.push(performance.now() - at);
  }
  const fourQueues = [];
  for (let i = 0; i < SCRAPES; i++) {
    const at = performance.now();
    await Promise.all(
      queues
        .slice(0, SERVICE_QUEUES.length)
        .map((queue) =>
          Promise.all([
            queue.getJobCounts(...QUEUE_STATES),
            queue.getJobs(['waiting'], 0, 0, true),
          ]),
        ),
    );
    fourQueues.push(performance.now() - at);
  }
  for (const socket of sockets) socket.close();

  // The instance with metrics on counted every request it answered.
  const counted = await fetch(`${on.url}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  }).then((response) => response.text());
  return {
    scrape: {
      idle,
      loaded,
      sockets_seen: seenSockets,
      failed_jobs_seen: failedSeen,
      bytes: scrapeBytes,
      ten_queue_reads: summary(tenQueues),
      four_queue_reads: summary(fourQueues),
    },
    passes,
    request_series: counted
      .split('\n')
      .filter((l) => l.startsWith('scs_http_request_duration_seconds_count')).length,
  };
});

const { scrape, passes } = results;
const names = Object.keys(passes[0]);
const cost = names.map((name) => {
  const rps = (label) => median(passes.map((row) => row[name][label].rps));
  const cpu = (label) => median(passes.map((row) => row[name][label].cpu_ms_per_request.server));
  return {
    endpoint: name,
    on: rps('metrics on'),
    off: rps('metrics off'),
    baseline: rps('baseline'),
    ratio: ratio(rps('metrics on'), rps('metrics off')),
    rounds: passes.map((row) => ratio(row[name]['metrics on'].rps, row[name]['metrics off'].rps)),
    cpu_on: cpu('metrics on'),
    cpu_off: cpu('metrics off'),
  };
});
const sum = (key) => cost.reduce((total, c) => total + c[key], 0);
/** Throughput of the routes together, on ÷ off (noisy on shared cores). */
const overall = ratio(sum('on'), sum('off'));
/** The service's CPU per request, on ÷ off − 1, summed over the routes (not disturbed by others). */
const cpuCost = round((sum('cpu_on') / sum('cpu_off') - 1) * 100);
// The queue reads run in the background (METRICS_SAMPLE_SECONDS), never inside a scrape: more
// queues make that read longer (timed below), not the scrape.
const tenQueues = { p50_ms: scrape.loaded.p50_ms, p99_ms: scrape.loaded.p99_ms };
const void_ = passes.flatMap((row) =>
  Object.entries(row).flatMap(([name, r]) =>
    Object.entries(r)
      .filter(([, m]) => m.non2xx + m.errors > 0)
      .map(([label]) => `${name} (${label})`),
  ),
);
const socketsMiscounted = scrape.sockets_seen !== SOCKETS;
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const scrapeRow = (label, m) => [
  label,
  m.p50_ms,
  m.p99_ms,
  m.max_ms,
  m.cpu_ms?.service ?? '–',
  m.cpu_ms?.postgres ?? '–',
];

const markdown = [
  `## bench:metrics — ${new Date(started).toISOString()}`,
  '',
  `- Data: ${CONVERSATIONS} conversations, ${MESSAGES} messages; queues on ${REDIS ? 'Redis' : 'PostgreSQL (BullMQ backend)'}, each with 200 jobs, 20 failed ones in missed-chats.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}; load average at start ${machine.load_average_at_start.join(', ')} (the cores are shared with other work: wall-clock figures are noisy, CPU figures much less).`,
  '',
  table(
    [
      'scrape, one after another',
      'p50 ms',
      'p99 ms',
      'max ms',
      'CPU ms: service',
      'CPU ms: PostgreSQL',
    ],
    [
      scrapeRow('no socket open', scrape.idle),
      scrapeRow(`${SOCKETS} widget sockets open (seen: ${scrape.sockets_seen})`, scrape.loaded),
      scrapeRow('the collector’s reads of the 4 service queues, alone', scrape.four_queue_reads),
      scrapeRow('the same reads of 10 queues, alone', scrape.ten_queue_reads),
    ],
  ),
  '',
  `- Target: scrape ≤ ${SCRAPE_TARGET_MS} ms at ${SOCKETS} sockets and 10 queues. The queues are read in the background every second here (not in the scrape; 10 queues' reads take p50 ${scrape.ten_queue_reads.p50_ms} ms, p99 ${scrape.ten_queue_reads.p99_ms} ms): scrape p50 ${tenQueues.p50_ms} ms — ${verdict(tenQueues.p50_ms <= SCRAPE_TARGET_MS)}, p99 ${tenQueues.p99_ms} ms — ${verdict(tenQueues.p99_ms <= SCRAPE_TARGET_MS)}. Exposition: ${scrape.bytes} bytes.`,
  '',
  table(
    [
      'endpoint',
      'on req/s',
      'off req/s',
      'on ÷ off',
      'per round',
      'baseline req/s',
      'CPU ms/req on',
      'CPU ms/req off',
    ],
    cost.map((c) => [
      `\`${c.endpoint}\``,
      c.on,
      c.off,
      c.ratio,
      c.rounds.join(', '),
      c.baseline,
      c.cpu_on,
      c.cpu_off,
    ]),
  ),
  '',
  `- Load: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per endpoint and server, ${ROUNDS} rounds alternating which instance goes first; medians of the rounds. CPU: the service process's own, per request (/proc).`,
  `- Target: metrics cost ≤ 3 % of throughput. Throughput on ÷ off, ${names.length} routes together: ${overall} — ${verdict(overall >= COST_TARGET)}. The service's CPU per request with metrics: ${cpuCost >= 0 ? '+' : ''}${cpuCost} % — ${verdict(cpuCost <= 3)}.`,
  `- The request observer alone (route template + one histogram observation, compiled code, ${OBSERVER_CALLS.toLocaleString('en-US')} calls in the bench process): ${observeMicros} µs of CPU per request, that is ${cost.map((c) => `${round((observeMicros / 1000 / c.cpu_off) * 100, 2)} %`).join(', ')} of the ${names.length} routes' CPU per request without metrics.`,
  `- Request series after the run: ${results.request_series} (route × method × status; bounded by the route table).`,
  ...void_.map((name) => `- WARNING: ${name} had errors or non-2xx answers; its figures are void`),
  ...(socketsMiscounted
    ? [`- FAILED: ${SOCKETS} widget sockets open, /metrics counted ${scrape.sockets_seen}`]
    : []),
  `- Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
].join('\n');

writeResults(
  REDIS ? 'metrics-redis' : 'metrics',
  {
    machine,
    started_at: new Date(started).toISOString(),
    redis: REDIS,
    ...results,
    cost,
    overall,
    cpu_cost_percent: cpuCost,
    ten_queues: tenQueues,
    observer_cpu_us: observeMicros,
  },
  markdown,
);
if (void_.length > 0 || socketsMiscounted) process.exitCode = 1;
