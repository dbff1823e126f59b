import { type ChildProcess, spawn } from 'node:child_process';
import { binaryPath, freePort, localServerAvailable, portOpen } from './local-server';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** Whether the Redis-mode tests can run (see localServerAvailable). */
export const redisAvailable = (): boolean =>
  localServerAvailable({
    env: 'TEST_REDIS_URL',
    binaries: ['redis-server'],
    package: 'redis-server',
    tests: 'Redis-mode tests',
  });

/** A private redis-server on a free port (no persistence), or TEST_REDIS_URL when given. */
export async function startRedis(): Promise<RedisServer> {
  if (process.env.TEST_REDIS_URL)
    return { url: process.env.TEST_REDIS_URL, stop: async () => undefined };
  const binary = binaryPath('redis-server');
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
    if (await portOpen(port)) break;
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
