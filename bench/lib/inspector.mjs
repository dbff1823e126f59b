// A server started with `--inspect=127.0.0.1:<port>` (NODE_OPTIONS): a full garbage collection,
// then its `process.memoryUsage()`, over the Chrome DevTools protocol. Used to measure memory per
// socket without the garbage of the requests that opened them.
import WebSocket from 'ws';

export async function memoryAfterGc(inspectPort) {
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
    socket.close();
  }
}
