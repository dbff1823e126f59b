// Load with autocannon: a short warm-up, then the measured run, sampling the server's resident
// memory meanwhile. Every request goes to 127.0.0.1.
import autocannon from 'autocannon';
import { cpuMeter } from './cpu.mjs';
import { setting, SMOKE } from './smoke.mjs';
import { rssMiB } from './stack.mjs';

export const DURATION = setting('BENCH_DURATION', 10, 1);
export const WARMUP = setting('BENCH_WARMUP', 2, 0);
/**
 * A smoke run's load: this many requests (sampled every 100 ms) rather than a second of them. The
 * paths and checks are the same; a second of full load per endpoint and server was most of a
 * smoke run's CPU, and a test run's CPU is what the other suites wait for.
 */
export const SMOKE_REQUESTS = 100;
/** `bench:api` measures at each of these; `bench:growth` at the first. */
export const CONNECTION_COUNTS = setting('BENCH_CONNECTIONS', '20,50', '2').split(',').map(Number);
export const CONNECTIONS = CONNECTION_COUNTS[0];

const pick = (list) => list[Math.floor(Math.random() * list.length)];

/**
 * The benchmarked endpoints. `ids` are the seeded conversation ids; replies go to conversations
 * that are not closed (a closed one answers 409).
 */
export function endpoints(ids) {
  return {
    'GET /api/v1/conversations': { method: 'GET', path: () => '/api/v1/conversations' },
    'GET /api/v1/conversations/{id}/messages': {
      method: 'GET',
      path: () => `/api/v1/conversations/${pick(ids.conversationIds)}/messages`,
    },
    'POST /api/v1/conversations/{id}/messages': {
      method: 'POST',
      path: () => `/api/v1/conversations/${pick(ids.openConversationIds)}/messages`,
      body: JSON.stringify({ body: 'Thanks for waiting, I am looking into it now.' }),
    },
    'GET /api/v1/tickets?status=open': { method: 'GET', path: () => '/api/v1/tickets?status=open' },
  };
}

function run(server, endpoint, headers, duration, connections) {
  const options = {
    url: server.url,
    connections,
    ...(SMOKE ? { amount: SMOKE_REQUESTS, sampleInt: 100 } : { duration }),
    requests: [
      {
        method: endpoint.method,
        headers: { ...headers, ...(endpoint.body ? { 'content-type': 'application/json' } : {}) },
        ...(endpoint.body ? { body: endpoint.body } : {}),
        setupRequest: (request) => ({ ...request, path: endpoint.path() }),
      },
    ],
  };
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/**
 * Warm-up, then `DURATION` seconds of load: requests/s, latency, errors, peak RSS, and CPU ms
 * per request in the server, in PostgreSQL (`postmaster` is its pid) and in autocannon.
 */
export async function measure(
  server,
  endpoint,
  postmaster,
  headers = {},
  connections = CONNECTIONS,
) {
  // autocannon runs at least one sample interval (1 s): a smoke run's warm-up of 0 is none.
  if (WARMUP > 0) await run(server, endpoint, headers, WARMUP, connections);
  const cpu = cpuMeter(server.pid, postmaster);
  const samples = [];
  const sampler = setInterval(() => samples.push(rssMiB(server.pid)), 250);
  const result = await run(server, endpoint, headers, DURATION, connections).finally(() =>
    clearInterval(sampler),
  );
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.total / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    mean_ms: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytes_per_response: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    rss_peak_mib: Math.max(...samples, rssMiB(server.pid)),
    cpu_ms_per_request: cpu.perRequest(result.requests.total),
  };
}
