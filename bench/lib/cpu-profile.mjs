// Preloaded into the service by `BENCH_CPU_PROF=<dir>` (NODE_OPTIONS=--import, since Node 20
// refuses --cpu-prof there): the first SIGUSR2 starts the V8 CPU profiler, the next one writes
// `<dir>/service-<pid>-<n>.cpuprofile` (open it in Chrome DevTools or speedscope) and stops.
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
let running = false;
let written = 0;
process.on('SIGUSR2', () => {
  if (!running) {
    session.post('Profiler.start');
    running = true;
    return;
  }
  // The in-process session answers synchronously.
  session.post('Profiler.stop', (error, result) => {
    running = false;
    if (error) return;
    written += 1;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `service-${process.pid}-${written}.cpuprofile`),
      JSON.stringify(result.profile),
    );
  });
});
