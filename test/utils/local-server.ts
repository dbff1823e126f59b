import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/**
 * The first port the kernel hands out by itself (to `listen(0)` and to every outgoing
 * connection: the browser's, the database clients', the validating proxies'), from
 * `ip_local_port_range`; 32768 is Linux's default.
 */
function firstEphemeralPort(): number {
  try {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
    return Number.isInteger(low) && low > 10_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const WORKER_SLICES = 8;
const SLICE_SIZE = 1_000;
const sliceStart =
  firstEphemeralPort() -
  (WORKER_SLICES - (Number(process.env.JEST_WORKER_ID ?? 0) % WORKER_SLICES)) * SLICE_SIZE;
/** Where this test file starts in its slice (a file after it in the same worker starts elsewhere). */
let nextInSlice = Date.now() % SLICE_SIZE;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port nothing listens on, for a server a test starts on a port it must know beforehand
 * (an app at its own PUBLIC_URL, redis-server, mariadbd, dovecot, an SMTP door). The port lies
 * below the kernel's ephemeral range, in a slice of its own for each jest worker: a port from
 * `listen(0)` stays free only until the kernel hands it to any outgoing connection or other
 * `listen(0)` in the seconds before the server binds it (an app once failed to start with
 * EADDRINUSE that way under CI load); no socket is ever given one of these ports by the kernel,
 * and no other worker chooses from this slice.
 */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE_SIZE; tried += 1) {
    const port = sliceStart + (nextInSlice++ % SLICE_SIZE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart}-${sliceStart + SLICE_SIZE - 1}`);
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
