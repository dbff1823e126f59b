// npm run bench:webhooks — webhook deliveries per second to a local receiver and the delay from
// the commit of an event to the arrival of its delivery, beside a raw baseline: a plain
// node:http client POSTing the same number of bodies to the same receiver.
// Tickets are created through the public API (each commits one `ticket.created`) and
// BENCH_WEBHOOK_ENDPOINTS (4) endpoints subscribe to it, in two phases: steady, at
// BENCH_WEBHOOK_RATE (20) tickets a second for BENCH_WEBHOOK_SECONDS (15), for the delay at a rate
// the pipeline keeps up with; then a burst of BENCH_WEBHOOK_EVENTS (2000) tickets as fast as
// 10 connections create them, for the throughput (its delays include the backlog).
// BENCH_REDIS=1 runs the queues on a private redis-server instead of PostgreSQL;
// BENCH_SKIP_BUILD=1 skips the build.
import http from 'node:http';
import autocannon from 'autocannon';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import * as stack from './lib/stack.mjs';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 20);
const STEADY_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 15);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 4);
const REDIS = process.env.BENCH_REDIS === '1';
const BASELINE_CONCURRENCY = 32;

const started = Date.now();
const machine = stack.machine();
if (process.env.BENCH_SKIP_BUILD !== '1') stack.build();

/** A receiver answering 204 at once and recording when each delivery arrived. */
async function startReceiver() {
  const arrivals = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    arrivals,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function summary(arrivals, firstSent) {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  const seconds = (times.at(-1) - firstSent) / 1000;
  return {
    deliveries: arrivals.length,
    seconds,
    per_second: Math.round(arrivals.length / seconds),
  };
}

async function baselineRun(receiverUrl, count, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: BASELINE_CONCURRENCY });
  const first = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await new Promise((resolve, reject) => {
        const request = http.request(receiverUrl, {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        });
        request.on('response', (response) => response.resume().on('end', resolve));
        request.on('error', reject);
        request.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: BASELINE_CONCURRENCY }, worker));
  agent.destroy();
  return first;
}

const result = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_webhooks');
  const org = stack.createOrganization(url);
  const redis = REDIS ? await stack.startRedis() : undefined;
  if (redis) track(() => redis.stop());
  const port = await stack.freePort();
  const service = await stack.startService(url, `http://127.0.0.1:${port}`, port, {
    WEBHOOK_ALLOW_INSECURE: 'true',
    ...(redis ? { REDIS_URL: redis.url } : {}),
  });
  track(() => service.stop());
  const receiver = await startReceiver();
  track(() => receiver.close());

  const login = await fetch(`${service.url}/api/agent/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: org.owner.email, password: org.owner.password }),
  }).then((r) => r.json());
  if (!login.token) throw new Error(`login failed: ${JSON.stringify(login)}`);
  for (let i = 0; i < ENDPOINTS; i += 1) {
    const created = await fetch(`${service.url}/api/agent/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ url: `${receiver.url}/endpoint-${i}`, events: ['ticket.created'] }),
    });
    if (created.status !== 201) throw new Error(`endpoint not created: ${await created.text()}`);
  }

  /** Creates `amount` tickets (at `rate` a second, or as fast as it goes) and waits for every delivery. */
  async function phase(amount, rate) {
    receiver.arrivals.length = 0;
    const firstSent = Date.now();
    const load = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `${service.url}/api/v1/tickets`,
          method: 'POST',
          connections: 10,
          amount,
          ...(rate ? { overallRate: rate } : {}),
          headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ subject: 'Invoice missing', description: 'Bench ticket' }),
        },
        (error, value) => (error ? reject(error) : resolve(value)),
      ),
    );
    if (load.non2xx > 0) throw new Error(`${load.non2xx} ticket creations failed`);
    const expected = amount * ENDPOINTS;
    const deadline = Date.now() + 300_000;
    while (receiver.arrivals.length < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const delays = receiver.arrivals
      .map((a) => a.at - Date.parse(JSON.parse(a.body).created_at))
      .sort((a, b) => a - b);
    return {
      tickets: amount,
      creations_per_second: Math.round(load.requests.total / load.duration),
      ...summary(receiver.arrivals, firstSent),
      missing: expected - receiver.arrivals.length,
      delay_ms: {
        p50: percentile(delays, 50),
        p90: percentile(delays, 90),
        p99: percentile(delays, 99),
        max: delays.at(-1),
      },
    };
  }

  const steadyTickets = RATE * STEADY_SECONDS;
  log(`steady: ${steadyTickets} tickets at ${RATE}/s (${steadyTickets * ENDPOINTS} deliveries)`);
  const steady = await phase(steadyTickets, RATE);
  log(`burst: ${EVENTS} tickets (${EVENTS * ENDPOINTS} deliveries)`);
  const burst = await phase(EVENTS, 0);
  const rss = stack.rssMiB(service.pid);
  const expected = EVENTS * ENDPOINTS;

  const body = receiver.arrivals[0]?.body ?? '{}';
  receiver.arrivals.length = 0;
  const baselineFirst = await baselineRun(`${receiver.url}/baseline`, expected, body);
  const baseline = summary(receiver.arrivals, baselineFirst);
  return { steady, burst, baseline, rss_after_mib: rss };
});

const { steady, burst, baseline } = result;
const ratio = Math.round((burst.per_second / baseline.per_second) * 100) / 100;
const delayRow = (label, p) => [
  label,
  p.delay_ms.p50,
  p.delay_ms.p90,
  p.delay_ms.p99,
  p.delay_ms.max,
];
const markdown = [
  `## bench:webhooks — ${new Date(started).toISOString()}`,
  '',
  `- Tickets created through \`POST /api/v1/tickets\` (autocannon, 10 connections), each one \`ticket.created\`; ${ENDPOINTS} endpoints subscribed to it, on one local receiver answering 204.`,
  `- Steady: ${steady.tickets} tickets at ${RATE}/s (${steady.creations_per_second} created/s), ${steady.tickets * ENDPOINTS} deliveries — the delay at a rate the pipeline keeps up with. Burst: ${burst.tickets} tickets as fast as they are created (${burst.creations_per_second}/s), ${burst.tickets * ENDPOINTS} deliveries — the throughput; its delays include the backlog.`,
  `- Service: embedded PostgreSQL, ${REDIS ? 'BullMQ on a local redis-server (REDIS_URL, BENCH_REDIS=1)' : 'BullMQ on PostgreSQL (no REDIS_URL)'}, WEBHOOK_ALLOW_INSECURE=true (the receiver is on 127.0.0.1), rate limit ${stack.RATE_LIMIT_PER_MINUTE}/min. The clock starts with the first creation request, so the rate includes the outbox relay and queue.`,
  `- Baseline: a node:http client POSTing the same body ${EVENTS * ENDPOINTS} times to the same receiver, ${BASELINE_CONCURRENCY} at a time, keep-alive.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}.`,
  '',
  table(
    ['', 'deliveries', 'seconds', 'deliveries/s', 'vs baseline'],
    [
      ['service, burst', burst.deliveries, burst.seconds, burst.per_second, ratio],
      ['baseline', baseline.deliveries, baseline.seconds, baseline.per_second, 1],
    ],
  ),
  '',
  table(
    ['delay commit → arrival', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    [delayRow(`service, steady ${RATE * ENDPOINTS}/s`, steady), delayRow('service, burst', burst)],
  ),
  '',
  `- Deliveries missing at the end: ${steady.missing + burst.missing}. Service RSS after the run: ${result.rss_after_mib} MiB.`,
  `- Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
].join('\n');
writeResults(
  REDIS ? 'webhooks-redis' : 'webhooks',
  {
    machine,
    endpoints: ENDPOINTS,
    rate: RATE,
    queue: REDIS ? 'redis' : 'postgres',
    ...result,
    ratio,
  },
  markdown,
);
if (steady.missing + burst.missing > 0) process.exitCode = 1;
