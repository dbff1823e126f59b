// node bench/async-context-cost.mjs — what AsyncLocalStorage costs every promise on this Node.js:
// one million awaits with no store ever entered, then in a process where one `run` has happened
// (as the audit log's request context does on the first request). On Node 20 the second turns
// on a process-wide promise hook; Node 24 carries the context without one. Each in a child
// process, three rounds each, CPU time. BENCH_SMOKE=1 awaits a tenth as often
// (bench/lib/smoke.mjs).
import { execFileSync } from 'node:child_process';
import { setting, SMOKE } from './lib/smoke.mjs';

// Each call of `work` awaits 20 times.
const CALLS = setting('BENCH_ASYNC_CALLS', 50_000, 5_000);
const AWAITS = CALLS * 20;

const CHILD = `
const { AsyncLocalStorage } = require('node:async_hooks');
const enable = process.argv[1] === 'on';
const calls = Number(process.argv[2]);
async function work() { let x = 0; for (let i = 0; i < 20; i++) x += await Promise.resolve(i); return x; }
(async () => {
  if (enable) new AsyncLocalStorage().run({}, () => {});
  const rounds = [];
  for (let r = 0; r < 3; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await work();
    const used = process.cpuUsage(start);
    rounds.push(Math.round((used.user + used.system) / 1000));
  }
  console.log(rounds.join(' '));
})();
`;

if (SMOKE) console.log('Smoke run (BENCH_SMOKE=1): the figures mean nothing; do not quote them.');
for (const mode of ['off', 'on']) {
  const out = execFileSync(process.execPath, ['-e', CHILD, mode, String(CALLS)], {
    encoding: 'utf8',
  }).trim();
  console.log(
    `${mode === 'on' ? 'after one AsyncLocalStorage.run' : 'no AsyncLocalStorage'}: ${out} ms of CPU per ${AWAITS.toLocaleString('en-US').replaceAll(',', ' ')} awaits (node ${process.version})`,
  );
}
