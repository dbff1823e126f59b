import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { startValidatingProxy } from './openapi-proxy';
import { ROOT } from './test-env';

export interface AppProcess {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The app's process id. */
  pid: number;
  /** Every log line the process wrote, parsed when it was JSON. */
  logs: Record<string, unknown>[];
  /** Graceful stop (SIGTERM), resolving with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown hook runs. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/**
 * What the suites' apps may reach by data lookup: the owner databases the tests run are local
 * (loopback), some on the test PostgreSQL server that also holds the app's own database, which
 * needs its `host:port` named. A suite checking the target policy passes its own value.
 */
export function localOwnerDatabases(databaseUrl: string | undefined): string {
  const entries = ['127.0.0.0/8', '::1', 'localhost'];
  if (databaseUrl) {
    const own = new URL(databaseUrl);
    entries.push(`${own.hostname}:${own.port || 5432}`);
  }
  return entries.join(',');
}

/**
 * What every test app starts with unless the test says otherwise: suites register, log in, send
 * and book far more than one person would, all from 127.0.0.1 (the validating proxy), so the
 * throttles are set out of reach, and scrypt runs at the smallest cost the service accepts (2^10:
 * about 2 ms of CPU per hash, where 2^14 took 28 ms and the OWASP 2^17 of production costs
 * 128 MiB and a few hundred ms; a run hashes a password at every sign-up and login). Tests of a
 * limit or of the production cost pass their own value.
 */
export const LOOSE_LIMITS: Record<string, string> = {
  PASSWORD_SCRYPT_N: '1024',
  SIGNUP_LIMIT_PER_HOUR: '100000',
  WIDGET_LIMIT_PER_MINUTE: '100000',
  VISITOR_MESSAGE_LIMIT_PER_MINUTE: '100000',
  TRUSTED_LOGIN_LIMIT_PER_MINUTE: '100000',
  OTP_MAIL_LIMIT_PER_HOUR: '1000',
  LOGIN_FREE_FAILURES: '100000',
  LOGIN_FREE_FAILURES_PER_CLIENT: '100000',
  SOCKET_EVENTS_PER_SECOND: '1000',
  SOCKET_EVENT_BURST: '1000',
  WEBHOOK_ENDPOINTS_MAX: '1000',
  BOOKINGS_PER_VISITOR_MAX: '1000',
  BOOKINGS_PER_ADDRESS_PER_HOUR: '100000',
  BOOKINGS_PER_SITE_PER_HOUR: '100000',
  BOOKINGS_UNHANDLED_PER_SITE_MAX: '100000',
  VISITOR_UNSENT_UPLOADS_MAX: '1000',
  VISITOR_UPLOAD_MB_PER_HOUR: '100000',
  ADDRESS_UPLOAD_MB_PER_HOUR: '100000',
};

/**
 * Node's on-disk cache of compiled code (NODE_COMPILE_CACHE, Node.js 22.1 and later; earlier ones
 * ignore it): a run starts the service a few hundred times, and after the first start each one
 * takes the service's and its dependencies' compiled code from here instead of compiling it
 * again (about a sixth of a start's CPU). Node checks each entry against the source it was made
 * from, so a rebuilt file is compiled afresh.
 */
export const COMPILE_CACHE = path.join(ROOT, '.data', 'compile-cache');

/**
 * Starts the compiled service (`dist/src/main.js`, what `npm start` runs) as a child process, on a
 * free port, and resolves once it listens. The tests then talk HTTP to it like any client.
 * `where` starts another build of it (the container recipe's, in a scratch directory).
 */
export async function startApp(
  env: Record<string, string | undefined>,
  where: { cwd: string; script: string } = { cwd: ROOT, script: 'dist/src/main.js' },
): Promise<AppProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [path.resolve(where.cwd, where.script)],
    {
      cwd: where.cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        WEBHOOK_ALLOW_INSECURE: 'true',
        DATA_LOOKUP_ALLOWED_HOSTS: localOwnerDatabases(env.DATABASE_URL),
        ...LOOSE_LIMITS,
        ...env,
      },
    },
  );
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const port = await new Promise<number>((resolve, reject) => {
    // Seconds on an idle machine; a loaded one (CI's two cores under three jest workers and their
    // browsers) can take many times that. The last log lines say where a slow start stood.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const last = logs.slice(-5).map((entry) => JSON.stringify(entry));
      reject(new Error(`app did not start in 60 s\n${stderr}\n${last.join('\n')}`));
    }, 60_000);
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (typeof entry.port === 'number' && typeof entry.startup_ms === 'number') {
            clearTimeout(timer);
            resolve(entry.port);
          }
        } catch {
          logs.push({ raw: line });
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code} before listening\n${stderr}`));
    });
  });

  // Every test talks to the app through a proxy that checks each response against the
  // OpenAPI document; a suite fails when its app stops with a violation on record.
  const proxy = await startValidatingProxy(`http://127.0.0.1:${port}`);
  const verify = async () => {
    const violations = await proxy.close();
    if (violations.length > 0)
      throw new Error(
        `Responses that do not match the OpenAPI document:\n${violations.join('\n')}`,
      );
  };
  return {
    url: proxy.url,
    port,
    pid: child.pid!,
    logs,
    exited,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      await verify();
      return code;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      await verify();
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until the app has logged a line matching `match` (a substring or a pattern over the line's
 * JSON, or a predicate) and returns it. A log line travels on the process's own pipe, so it may
 * reach the test after the HTTP answer that followed it: never read `logs` right after a request.
 */
export async function logged(
  app: Pick<AppProcess, 'logs'>,
  match: string | RegExp | ((entry: Record<string, unknown>) => boolean),
  ms = 10_000,
): Promise<Record<string, unknown>> {
  const test =
    typeof match === 'function'
      ? match
      : (entry: Record<string, unknown>) => {
          const text = JSON.stringify(entry);
          return typeof match === 'string' ? text.includes(match) : match.test(text);
        };
  try {
    return await eventually(async () => app.logs.find(test), ms);
  } catch {
    const last = app.logs.slice(-15).map((entry) => JSON.stringify(entry));
    throw new Error(
      `no log line matched ${String(match)} within ${ms} ms; the last lines:\n${last.join('\n')}`,
    );
  }
}

/** A port for an app started at a known PUBLIC_URL (cookie requests from the dashboard need
 * their Origin to be the service's own). */
export { freePort } from './local-server';
