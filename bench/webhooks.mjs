// npm run bench:webhooks — webhook deliveries per second to a local receiver and the delay from
// the commit of an event to the arrival of its delivery, beside a raw baseline: a plain
// node:http client POSTing the same number of bodies to the same receiver.
// BENCH_WEBHOOK_ENDPOINTS (4) endpoints subscribe to `ticket.created`, in three phases:
// - steady: tickets created through the public API at BENCH_WEBHOOK_RATE (20) a second for
//   BENCH_WEBHOOK_SECONDS (15), that is 80 deliveries a second: the delay at a rate the pipeline
//   keeps up with;
// - burst: BENCH_WEBHOOK_EVENTS (2000) `ticket.created` outbox rows committed in one transaction
//   (the API's own rows, copied), for the pipeline's throughput from commit to the last arrival.
//   Ticket creation through the API tops out near 80 a second on this machine (bench:api), which
//   would cap the deliveries at about 4 × 80 and measure the ticket route instead;
// - recovery: BENCH_WEBHOOK_RECOVERY_EVENTS (250) rows, the service killed with SIGKILL once a
//   third of their deliveries arrived, started again on the same data: the time from its
//   readiness to the last delivery and to the last of those it had claimed when it was killed,
//   and repeats (a repeat must carry the delivery id of the first arrival).
// Missing and duplicated deliveries are counted by delivery id at the receiver.
// BENCH_REDIS=1 runs the queues on a private redis-server instead of PostgreSQL;
// BENCH_PG_STATS=1 loads pg_stat_statements and prints the statements of the burst;
// BENCH_CPU_PROF=<dir> writes a CPU profile of the service during the burst;
// BENCH_SKIP_BUILD=1 skips the build; BENCH_SMOKE=1 runs each phase small (bench/lib/smoke.mjs).
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';

const EVENTS = setting('BENCH_WEBHOOK_EVENTS', 2000, 20);
const RATE = setting('BENCH_WEBHOOK_RATE', 20, 10);
const STEADY_SECONDS = setting('BENCH_WEBHOOK_SECONDS', 15, 1);
const ENDPOINTS = setting('BENCH_WEBHOOK_ENDPOINTS', 4, 2);
const REDIS = process.env.BENCH_REDIS === '1';
const PG_STATS = process.env.BENCH_PG_STATS === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const RECOVERY = process.env.BENCH_WEBHOOK_RECOVERY !== '0';
const RECOVERY_EVENTS = setting('BENCH_WEBHOOK_RECOVERY_EVENTS', 250, 30);
const BASELINE_CONCURRENCY = 32;
const WAIT_LIMIT_MS = 300_000;

const started = Date.now();
const machine = stack.machine();
stack.build();

/** A receiver answering 204 at once and recording when each delivery arrived. */
async function startReceiver() {
  const arrivals = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), path: request.url, body: Buffer.concat(chunks).toString() });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    arrivals,
    /** Distinct delivery ids arrived so far. */
    distinct: () => new Set(arrivals.map((a) => JSON.parse(a.body).id)).size,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Deliveries, distinct ids, rate and delays of the arrivals since `from`. */
/**
 * Where the steady phase's time goes, from the rows' own timestamps (p50 / p99 ms): the outbox
 * row's transaction to its deliveries' rows (the event dispatched and handled), to the first
 * attempt's start (the delivery job picked up).
 */
async function stages(client) {
  const { rows } = await client.query(
    `SELECT stage, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS p50,
            round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS p99
       FROM (
         SELECT 'event → deliveries written' AS stage,
                extract(epoch FROM d.created_at - o.created_at) * 1000 AS ms
           FROM webhook_deliveries d JOIN outbox_events o ON o.id = d.outbox_id
         UNION ALL
         SELECT 'deliveries written → attempt', extract(epoch FROM a.started_at - d.created_at) * 1000
           FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE a.attempt = 1
       ) s GROUP BY stage`,
  );
  return Object.fromEntries(
    rows.map((r) => [r.stage, { p50_ms: Number(r.p50), p99_ms: Number(r.p99) }]),
  );
}

function summary(arrivals, from, expected) {
  const parsed = arrivals.map((a) => ({ ...a, body: JSON.parse(a.body) }));
  const ids = new Set(parsed.map((a) => a.body.id));
  const last = Math.max(...parsed.map((a) => a.at));
  const seconds = (last - from) / 1000;
  const delays = parsed.map((a) => a.at - Date.parse(a.body.created_at)).sort((a, b) => a - b);
  return {
    deliveries: ids.size,
    missing: expected - ids.size,
    duplicated: parsed.length - ids.size,
    seconds,
    per_second: Math.round(ids.size / seconds),
    delay_ms: {
      p50: percentile(delays, 50),
      p90: percentile(delays, 90),
      p99: percentile(delays, 99),
      max: delays.at(-1),
    },
  };
}

async function until(condition, limitMs = WAIT_LIMIT_MS) {
  const deadline = Date.now() + limitMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
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
  // With pg_stat_statements loaded when BENCH_PG_STATS=1 (a restart).
  const db = await stack.startDatabase({ statements: PG_STATS });
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_webhooks');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  track(() => client.end());
  if (PG_STATS) await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const org = stack.createOrganization(url);
  const redis = REDIS ? await stack.startRedis() : undefined;
  if (redis) track(() => redis.stop());
  const port = await stack.freePort();
  const serviceEnv = {
    WEBHOOK_ALLOW_INSECURE: 'true',
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...(CPU_PROF
      ? {
          NODE_OPTIONS: `--import ${path.join(stack.ROOT, 'bench', 'lib', 'cpu-profile.mjs')}`,
          BENCH_CPU_PROF_DIR: CPU_PROF,
        }
      : {}),
  };
  let service = await stack.startService(url, `http://127.0.0.1:${port}`, port, serviceEnv);
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

  // Steady: tickets through the public API at RATE a second.
  const steadyTickets = RATE * STEADY_SECONDS;
  log(`steady: ${steadyTickets} tickets at ${RATE}/s (${RATE * ENDPOINTS} deliveries/s)`);
  const steadyStart = Date.now();
  const load = await new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${service.url}/api/v1/tickets`,
        method: 'POST',
        connections: 10,
        amount: steadyTickets,
        overallRate: RATE,
        headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'Invoice missing', description: 'Bench ticket' }),
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    ),
  );
  if (load.non2xx > 0) throw new Error(`${load.non2xx} ticket creations failed`);
  await until(() => receiver.distinct() >= steadyTickets * ENDPOINTS);
  await new Promise((r) => setTimeout(r, 500)); // late duplicates
  const steady = {
    tickets: steadyTickets,
    ...summary(receiver.arrivals, steadyStart, steadyTickets * ENDPOINTS),
    stages: await stages(client),
  };

  /** Commits `amount` copies of an API-written `ticket.created` row in one transaction. */
  const [{ payload }] = (
    await client.query(
      `SELECT payload FROM outbox_events WHERE event_type = 'ticket.created' ORDER BY id LIMIT 1`,
    )
  ).rows;
  async function commitEvents(amount, tag) {
    await client.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload)
       SELECT $1, 'ticket.created', $2::jsonb || jsonb_build_object('bench', $3::text || g)
       FROM generate_series(1, $4) g`,
      [org.organization.id, payload, tag, amount],
    );
    return Date.now();
  }

  // Burst: the pipeline's throughput from one commit of EVENTS events.
  receiver.arrivals.length = 0;
  if (PG_STATS) await client.query('SELECT pg_stat_statements_reset()');
  log(`burst: ${EVENTS} events committed at once (${EVENTS * ENDPOINTS} deliveries)`);
  if (CPU_PROF) process.kill(service.pid, 'SIGUSR2');
  const burstStart = await commitEvents(EVENTS, 'burst-');
  await until(() => receiver.distinct() >= EVENTS * ENDPOINTS);
  if (CPU_PROF) process.kill(service.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 500));
  const burst = { events: EVENTS, ...summary(receiver.arrivals, burstStart, EVENTS * ENDPOINTS) };
  const statements = PG_STATS
    ? (
        await client.query(
          `SELECT calls::int, round(total_exec_time)::int AS total_ms,
             regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           ORDER BY calls DESC`,
        )
      ).rows
    : undefined;
  const rss = stack.rssMiB(service.pid);

  // Recovery: SIGKILL in the middle of a burst, then the same data again.
  let recovery;
  if (RECOVERY) {
    receiver.arrivals.length = 0;
    const expected = RECOVERY_EVENTS * ENDPOINTS;
    log(`recovery: ${RECOVERY_EVENTS} events, SIGKILL after a third of their deliveries, restart`);
    await commitEvents(RECOVERY_EVENTS, 'recovery-');
    await until(() => receiver.arrivals.length >= expected / 3);
    process.kill(service.pid, 'SIGKILL');
    const killedAt = Date.now();
    const beforeKill = receiver.distinct();
    await service.stop();
    // Claimed for an attempt (the claim pushes the next attempt past its deadline), not recorded.
    const inFlight = new Set(
      (
        await client.query(
          `SELECT id FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at > now() + interval '5 seconds'`,
        )
      ).rows.map((row) => row.id),
    );
    service = await stack.startService(url, `http://127.0.0.1:${port}`, port, serviceEnv);
    const readyAt = Date.now();
    await until(() => receiver.distinct() >= expected);
    await new Promise((r) => setTimeout(r, 2000)); // late repeats
    const parsed = receiver.arrivals.map((a) => ({ ...a, body: JSON.parse(a.body) }));
    const firstArrival = new Map();
    const perEvent = new Map();
    for (const a of parsed) {
      if (!firstArrival.has(a.body.id) || (inFlight.has(a.body.id) && a.at > killedAt)) {
        firstArrival.set(a.body.id, a.at);
      }
      const key = `${a.body.data.bench} ${a.path}`;
      perEvent.set(key, (perEvent.get(key) ?? new Set()).add(a.body.id));
    }
    const lastOf = (ids) => Math.max(...ids.map((id) => firstArrival.get(id) ?? Infinity));
    recovery = {
      events: RECOVERY_EVENTS,
      delivered_before_kill: beforeKill,
      in_flight_at_kill: inFlight.size,
      restart_ms: readyAt - killedAt,
      deliveries: firstArrival.size,
      missing: expected - firstArrival.size,
      repeats_same_id: parsed.length - firstArrival.size,
      two_ids_for_one_delivery: [...perEvent.values()].filter((ids) => ids.size > 1).length,
      last_delivery_after_ready_ms: lastOf([...firstArrival.keys()]) - readyAt,
      last_in_flight_after_ready_ms: inFlight.size ? lastOf([...inFlight]) - readyAt : null,
    };
  }

  const body = receiver.arrivals[0]?.body ?? '{}';
  receiver.arrivals.length = 0;
  const baselineFirst = await baselineRun(`${receiver.url}/baseline`, EVENTS * ENDPOINTS, body);
  const seconds = (Math.max(...receiver.arrivals.map((a) => a.at)) - baselineFirst) / 1000;
  const baseline = {
    deliveries: receiver.arrivals.length,
    seconds,
    per_second: Math.round(receiver.arrivals.length / seconds),
  };
  return { steady, burst, recovery, baseline, statements, rss_after_burst_mib: rss };
});

const { steady, burst, baseline, recovery, statements } = result;
const ratio = Math.round((burst.per_second / baseline.per_second) * 100) / 100;
const delayRow = (label, p) => [
  label,
  p.delay_ms.p50,
  p.delay_ms.p90,
  p.delay_ms.p99,
  p.delay_ms.max,
];
const totalCalls = statements?.reduce((sum, row) => sum + row.calls, 0);
const markdown = [
  `## bench:webhooks — ${new Date(started).toISOString()}`,
  '',
  `- ${ENDPOINTS} endpoints subscribed to \`ticket.created\`, on one local receiver answering 204.`,
  `- Steady phase by stage (p50 / p99 ms, from the rows' timestamps): ${Object.entries(
    steady.stages,
  )
    .map(([k, v]) => `${k} ${v.p50_ms} / ${v.p99_ms}`)
    .join('; ')}.`,
  `- Steady: ${steady.tickets} tickets through \`POST /api/v1/tickets\` at ${RATE}/s, ${RATE * ENDPOINTS} deliveries/s. Burst: ${EVENTS} \`ticket.created\` events committed in one transaction, ${EVENTS * ENDPOINTS} deliveries, timed from the commit to the last arrival (the delays include the backlog).`,
  `- Service: embedded PostgreSQL, ${REDIS ? 'BullMQ on a local redis-server (REDIS_URL, BENCH_REDIS=1)' : 'BullMQ on PostgreSQL (no REDIS_URL)'}, WEBHOOK_ALLOW_INSECURE=true (the receiver is on 127.0.0.1)${CPU_PROF ? `, CPU profile in ${CPU_PROF}` : ''}${PG_STATS ? ', pg_stat_statements loaded' : ''}.`,
  `- Baseline: a node:http client POSTing the same body ${EVENTS * ENDPOINTS} times to the same receiver, ${BASELINE_CONCURRENCY} at a time, keep-alive.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}, load average at the start ${machine.load_average_at_start.join(' / ')}.`,
  '',
  table(
    ['', 'deliveries', 'seconds', 'deliveries/s', 'vs baseline', 'missing', 'duplicated'],
    [
      [
        'service, burst',
        burst.deliveries,
        burst.seconds,
        burst.per_second,
        ratio,
        burst.missing,
        burst.duplicated,
      ],
      ['baseline', baseline.deliveries, baseline.seconds, baseline.per_second, 1, '', ''],
    ],
  ),
  '',
  table(
    ['delay commit → arrival', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'missing', 'duplicated'],
    [
      [
        ...delayRow(`service, steady ${RATE * ENDPOINTS}/s`, steady),
        steady.missing,
        steady.duplicated,
      ],
      [...delayRow('service, burst', burst), burst.missing, burst.duplicated],
    ],
  ),
  ...(recovery
    ? [
        '',
        `- Recovery: ${recovery.events} events (${recovery.events * ENDPOINTS} deliveries); ${recovery.delivered_before_kill} had arrived and ${recovery.in_flight_at_kill} were claimed for an attempt when the service was killed (SIGKILL); restarted, ready ${recovery.restart_ms} ms later. After ready: the claimed ones arrived within **${recovery.last_in_flight_after_ready_ms} ms**, every delivery within **${recovery.last_delivery_after_ready_ms} ms**. Missing ${recovery.missing}; repeats (same delivery id) ${recovery.repeats_same_id}; deliveries that arrived under two ids ${recovery.two_ids_for_one_delivery}.`,
      ]
    : []),
  ...(statements
    ? [
        '',
        `- pg_stat_statements during the burst: ${totalCalls} statements, ${Math.round((totalCalls / (EVENTS * ENDPOINTS)) * 10) / 10} per delivery. The most frequent:`,
        '',
        table(
          ['calls', 'per delivery', 'total ms', 'statement'],
          statements
            .slice(0, 15)
            .map((row) => [
              row.calls,
              Math.round((row.calls / (EVENTS * ENDPOINTS)) * 100) / 100,
              row.total_ms,
              `\`${row.query.slice(0, 110).replaceAll('|', '/')}\``,
            ]),
        ),
      ]
    : []),
  '',
  `- Service RSS after the burst: ${result.rss_after_burst_mib} MiB. Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
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
const failures =
  steady.missing + burst.missing + (recovery?.missing ?? 0) + steady.duplicated + burst.duplicated;
if (failures > 0 || (recovery?.two_ids_for_one_delivery ?? 0) > 0) process.exitCode = 1;
