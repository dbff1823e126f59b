// node bench/profile-stages.mjs <file.cpuprofile> [requests] — where a server's busy time went,
// by stage of a request: each sample goes to the stage of the frame nearest the leaf that names
// one (a middleware's samples include what it calls, so the innermost stage wins). Idle samples
// are left out. With `requests` (what the profile served), each stage also in ms per request.
// Used on the profiles of `BENCH_PROFILE=1 npm run bench:api` (the service's and the
// baseline's) in bench/README.md.
import fs from 'node:fs';

const STAGES = [
  ['writev to PostgreSQL', (f) => f.functionName === 'writev'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  [
    'pg: reading rows',
    (f) =>
      /pg-protocol|\/pg\/lib\/(result|client)|postgres-date|pg-types/.test(f.url) &&
      !/submit|_pulseQueryQueue/.test(f.functionName),
  ],
  ['pg: sending, pool', (f) => /\/pg\/|pg-pool/.test(f.url)],
  ['text rule', (f) => /text-rule/.test(f.url)],
  ['request log', (f) => /http-logger/.test(f.url)],
  ['rate limit', (f) => /rate-limit|throttler/.test(f.url)],
  ['authentication', (f) => /auth\.guard|api-key|auth\.service|crypto\/secrets/.test(f.url)],
  [
    'validation',
    (f) => /class-validator|class-transformer|validation\.pipe|validator\//.test(f.url),
  ],
  ['answer (envelope, JSON)', (f) => /json-express-adapter|envelope|response-shape/.test(f.url)],
  ['handlers, repositories, DTOs', (f) => /dist\/src\/modules/.test(f.url)],
  ['service: other', (f) => /dist\/src\//.test(f.url)],
  ['Nest', (f) => /@nestjs/.test(f.url)],
  ['Express', (f) => /express|router|body-parser|cors|finalhandler|serve-static/.test(f.url)],
  ['Socket.IO', (f) => /socket\.io|engine\.io|\/ws\//.test(f.url)],
  ['node:http', (f) => /node:_http|node:http/.test(f.url)],
  ['node: streams, net', (f) => /node:internal\/streams|node:net|stream_base/.test(f.url)],
  ['module loading (start-up)', (f) => /node:internal\/modules/.test(f.url)],
];

const [file, requestsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-stages.mjs <file.cpuprofile> [requests]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);

const totals = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  const leaf = nodes.get(id).callFrame.functionName;
  if (leaf === '(idle)' || leaf === '(program)') return;
  busy += delta;
  let stage = 'other';
  search: for (let current = id; current !== undefined; current = parent.get(current)) {
    const frame = nodes.get(current).callFrame;
    for (const [name, test] of STAGES) {
      if (test(frame)) {
        stage = name;
        break search;
      }
    }
  }
  totals.set(stage, (totals.get(stage) ?? 0) + delta);
});

const requests = Number(requestsArg ?? 0);
const perRequest = (micros) =>
  requests ? ` ${(micros / 1000 / requests).toFixed(3)} ms/request` : '';
console.log(`busy ${(busy / 1e6).toFixed(2)} s${perRequest(busy)}`);
for (const [stage, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`${((micros / busy) * 100).toFixed(1).padStart(5)} %${perRequest(micros)}  ${stage}`);
}
