import { execFileSync } from 'node:child_process';
import net from 'node:net';

/** The path of an installed program, or undefined. */
export function binaryPath(name: string): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Whether tests that start their own server (redis-server, mariadbd) can run: its programs are
 * installed or `env` names a running one. CI installs them (see .ci/run) and there a missing one
 * is a failure; on a developer machine without it those tests are reported as skipped.
 */
export function localServerAvailable(options: {
  env: string;
  binaries: string[];
  package: string;
  tests: string;
}): boolean {
  if (process.env[options.env] || options.binaries.every((name) => binaryPath(name))) return true;
  const install = `apt-get install -y ${options.package}`;
  if (process.env.CI) throw new Error(`${options.binaries[0]} is required in CI (${install})`);
  console.warn(`${options.binaries[0]} not found: ${options.tests} are skipped (${install})`);
  return false;
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** Whether something accepts connections on a local port now (a server started by a test). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
