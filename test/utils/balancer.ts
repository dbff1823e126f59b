import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface Backend {
  name: string;
  port: number;
}

/** What the balancer did, for a test to check. */
export interface BalancerRecord {
  /** Readiness answers per backend, in order: true for a 200, false otherwise. */
  readiness: Map<string, boolean[]>;
  /** The backend each WebSocket upgrade was sent to, by the client's `x-client` header. */
  upgrades: { client: string; backend: string }[];
  /** Requests sent again to another backend after a refused connection. */
  retried: number;
}

/**
 * A load balancer in front of several app instances, as a Kubernetes Service with readiness
 * probes or a proxy with health checks is: it polls each backend's `/health/ready` and sends
 * requests and WebSocket upgrades round-robin to those answering 200, and sends a request whose
 * connection was refused (nothing reached the backend) to another one. No keep-alive towards the
 * backends: every request opens its own connection, so a refused connection is the only way a
 * request can fail to reach an instance that stopped listening.
 */
export async function startBalancer(backends: Backend[], probeEveryMs = 50) {
  const ready = new Map(backends.map((backend) => [backend.name, false]));
  const record: BalancerRecord = {
    readiness: new Map(backends.map((backend) => [backend.name, []])),
    upgrades: [],
    retried: 0,
  };
  let turn = 0;
  let closing = false;
  const tunnels = new Set<net.Socket>();

  const probe = (backend: Backend) =>
    new Promise<boolean>((resolve) => {
      const request = http.get(
        { host: '127.0.0.1', port: backend.port, path: '/health/ready', agent: false },
        (response) => {
          response.resume();
          resolve(response.statusCode === 200);
        },
      );
      request.setTimeout(2000, () => request.destroy());
      request.on('error', () => resolve(false));
    });
  const probes = backends.map(async (backend) => {
    while (!closing) {
      const ok = await probe(backend);
      ready.set(backend.name, ok);
      record.readiness.get(backend.name)!.push(ok);
      await new Promise((resolve) => setTimeout(resolve, probeEveryMs));
    }
  });

  /** The next ready backend, other than those in `skip`; waits up to 10 s for one. */
  const pick = async (skip: Set<string>): Promise<Backend | undefined> => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      for (let i = 0; i < backends.length; i += 1) {
        const backend = backends[(turn + i) % backends.length];
        if (ready.get(backend.name) && !skip.has(backend.name)) {
          turn = (turn + i + 1) % backends.length;
          return backend;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return undefined;
  };

  const forward = async (
    incoming: http.IncomingMessage,
    outgoing: http.ServerResponse,
    body: Buffer,
  ) => {
    const tried = new Set<string>();
    for (;;) {
      const backend = await pick(tried);
      if (!backend) {
        outgoing.writeHead(502).end('no backend');
        return;
      }
      const refused = await new Promise<boolean>((resolve) => {
        const headers = { ...incoming.headers, connection: 'close' };
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port: backend.port,
            method: incoming.method,
            path: incoming.url,
            headers,
            agent: false,
          },
          (response) => {
            outgoing.writeHead(response.statusCode ?? 502, response.headers);
            response.pipe(outgoing);
            resolve(false);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED') return resolve(true);
          // The request may have reached the backend: the client decides whether to send it again.
          outgoing.destroy(error);
          resolve(false);
        });
        upstream.end(body);
      });
      if (!refused) return;
      ready.set(backend.name, false);
      tried.add(backend.name);
      record.retried += 1;
    }
  };

  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => void forward(incoming, outgoing, Buffer.concat(chunks)));
  });

  server.on('upgrade', (incoming: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    void (async () => {
      const tried = new Set<string>();
      for (;;) {
        const backend = await pick(tried);
        if (!backend) return client.destroy();
        const upstream = net.connect(backend.port, '127.0.0.1');
        const connected = await new Promise<boolean>((resolve) => {
          upstream.once('connect', () => resolve(true));
          upstream.once('error', () => resolve(false));
        });
        if (!connected) {
          ready.set(backend.name, false);
          tried.add(backend.name);
          record.retried += 1;
          continue;
        }
        record.upgrades.push({
          client: String(incoming.headers['x-client'] ?? ''),
          backend: backend.name,
        });
        const lines = [`${incoming.method ?? 'GET'} ${incoming.url ?? '/'} HTTP/1.1`];
        for (let i = 0; i < incoming.rawHeaders.length; i += 2)
          lines.push(`${incoming.rawHeaders[i]}: ${incoming.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
        tunnels.add(client);
        const end = () => {
          tunnels.delete(client);
          upstream.destroy();
          client.destroy();
        };
        upstream.on('error', end).on('close', end);
        client.on('error', end).on('close', end);
        return;
      }
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    record,
    isReady: (name: string) => ready.get(name) === true,
    async close() {
      closing = true;
      server.closeAllConnections();
      for (const tunnel of tunnels) tunnel.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(probes);
    },
  };
}
