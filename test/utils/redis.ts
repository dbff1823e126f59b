import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

function redisBinary(): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Whether the Redis-mode tests can run. CI installs redis-server (see .ci/run) and there a missing
 * binary is a failure; on a developer machine without it those tests are reported as skipped.
 */
export const redisAvailable = (): boolean => {
  if (process.env.TEST_REDIS_URL || redisBinary()) return true;
  if (process.env.CI)
    throw new Error('redis-server is required in CI (apt-get install -y redis-server)');
  console.warn(
    'redis-server not found: Redis-mode tests are skipped (apt-get install -y redis-server)',
  );
  return false;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** A private redis-server on a free port (no persistence), or TEST_REDIS_URL when given. */
export async function startRedis(): Promise<RedisServer> {
  if (process.env.TEST_REDIS_URL)
    return { url: process.env.TEST_REDIS_URL, stop: async () => undefined };
  const binary = redisBinary();
  if (!binary) throw new Error('redis-server not found');
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
