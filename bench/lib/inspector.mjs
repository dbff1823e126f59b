// A server started with `--inspect=127.0.0.1:<port>` (NODE_OPTIONS), driven over the Chrome
// DevTools protocol: a full garbage collection then its `process.memoryUsage()` (memory per socket
// without the garbage of the requests that opened them), and a CPU profile of a stretch of load.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

/** A DevTools session with the server: `call(method, params)` answers with the result. */
async function devtools(inspectPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      id += 1;
      const mine = id;
      const onMessage = (data) => {
        const message = JSON.parse(String(data));
        if (message.id !== mine) return;
        socket.off('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  return { call, close: () => socket.close() };
}

export async function memoryAfterGc(inspectPort) {
  const { call, close } = await devtools(inspectPort);
  try {
    // Twice: the first pass frees what only a second one can then reclaim (weak references).
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const { result } = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(result.value);
    const mib = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
    return {
      rss_mib: mib(usage.rss),
      heap_used_mib: mib(usage.heapUsed),
      external_mib: mib(usage.external),
      bytes: usage,
    };
  } finally {
    close();
  }
}

/** Starts the V8 CPU profiler; `stop()` writes `<dir>/<name>.cpuprofile` (DevTools, speedscope). */
export async function startCpuProfile(inspectPort, dir, name) {
  const { call, close } = await devtools(inspectPort);
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 500 });
  await call('Profiler.start');
  return profileWriter({ call, close }, 'Profiler.stop', path.join(dir, `${name}.cpuprofile`));
}

/** `stop()` ends a profile with `method` and writes what it answers to `file`. */
function profileWriter({ call, close }, method, file) {
  return {
    async stop() {
      try {
        const { profile } = await call(method);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(profile));
        return file;
      } finally {
        close();
      }
    },
  };
}

/**
 * Starts V8's sampling heap profiler counting what survives the young generation: objects freed
 * by a scavenge are left out, those freed by a full GC kept, so the profile shows what is
 * promoted to the old generation (what makes full GCs come often). `stop()` writes
 * `<dir>/<name>.heapprofile` (DevTools' Memory tab reads it).
 */
export async function startPromotionProfile(inspectPort, dir, name) {
  const { call, close } = await devtools(inspectPort);
  await call('HeapProfiler.enable');
  await call('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  return profileWriter(
    { call, close },
    'HeapProfiler.stopSampling',
    path.join(dir, `${name}.heapprofile`),
  );
}
