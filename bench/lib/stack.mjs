// The pieces every benchmark needs: build, an embedded PostgreSQL in a temporary directory, a
// migrated database with one organization, the compiled service and the raw baseline as child
// processes on ports of our own choosing. All traffic stays on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postmasterPid } from './cpu.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(ROOT, 'dist', 'src', file));

/**
 * Compiles the service (`npm run build`) and, with `web`, the browser apps (`npm run build:web`),
 * as a fresh clone needs. BENCH_SKIP_BUILD=1 skips both, when `dist/` is current.
 */
export function build({ web = false } = {}) {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (web) execFileSync('npm', ['run', 'build:web', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `count` free ports, all different: each is held until every one is chosen, so servers started
 * side by side never get the same one.
 */
export async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = net.createServer();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/**
 * BENCH_DATABASE_ADMIN_URL: a running PostgreSQL (a superuser URL) to create the benchmark's
 * databases on, instead of an embedded server of its own. The smoke test passes the test run's
 * server: starting, stopping and removing a server of their own would cost each smoke run more
 * than its work. Figures measured beside other work on a shared server are not comparable.
 */
const SHARED_ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL || undefined;
/**
 * BENCH_DATABASE_TEMPLATE: a migrated database on that server, cloned for each new database
 * instead of running the migrations again (the smoke test passes the template its run migrated
 * with the same compiled runner).
 */
const TEMPLATE = process.env.BENCH_DATABASE_TEMPLATE || undefined;
/** On a shared server, the databases this process created there (dropped by `stop()`). */
const created = new Set();

/**
 * On a shared server, a database's name carries this process's id: two runs never meet in one
 * database, and what one leaves behind is recognisable.
 */
const databaseName = (name) => (SHARED_ADMIN_URL ? `${name}_${process.pid}` : name);

/**
 * An embedded PostgreSQL on a temporary data directory, removed again by `stop()`. With
 * `statements`, `pg_stat_statements` is loaded (a restart) for counting statements per request.
 * `postmasterPid` is the server's, for its CPU time (bench/lib/cpu.mjs).
 */
export async function startDatabase({ statements = false } = {}) {
  if (SHARED_ADMIN_URL) return sharedServer(SHARED_ADMIN_URL, statements);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scs-bench-'));
  // As root, the server runs as the `postgres` user, which must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  const start = () => dist('database/embedded-postgres.js').startEmbeddedPostgres(dataDir);
  let embedded = await start();
  if (statements) {
    const admin = new pg.Client({ connectionString: embedded.adminUrl });
    await admin.connect();
    await admin.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    // 'nested': statements inside functions too (BullMQ's PostgreSQL backend is PL/pgSQL).
    if (statements === 'nested')
      await admin.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
    await admin.end();
    await embedded.stop();
    embedded = await start();
  }
  return {
    ...embedded,
    dataDir,
    postmasterPid: postmasterPid(dataDir),
    async stop() {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** BENCH_DATABASE_ADMIN_URL's server, left running by `stop()`, which drops our databases. */
async function sharedServer(adminUrl, statements) {
  if (statements) {
    throw new Error(
      'pg_stat_statements needs a restart of the server, which a shared one (BENCH_DATABASE_ADMIN_URL) does not get: unset it',
    );
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const directory = await admin
    .query(`SELECT current_setting('data_directory') AS dir`)
    .finally(() => admin.end());
  // The postmaster's pid, when the server runs on this machine (its CPU is then counted too).
  let pid;
  try {
    pid = Number(readFileSync(`${directory.rows[0].dir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    pid = undefined;
  }
  return {
    adminUrl,
    dataDir: undefined,
    postmasterPid: pid,
    async stop() {
      for (const name of created) await drop(adminUrl, name);
      created.clear();
    },
  };
}

/**
 * A private `redis-server` on a free port without persistence (`BENCH_REDIS=1`), stopped by
 * `stop()`. Debian: `apt-get install -y redis-server`.
 */
export async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const failed = new Promise((_, reject) =>
    child.once('error', (error) => reject(new Error(`redis-server: ${error.message}`))),
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await Promise.race([
      failed,
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
        socket.on('error', () => resolve(false));
      }),
    ]);
    if (up) break;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** A new, migrated database on the server (or a clone of BENCH_DATABASE_TEMPLATE); its URL. */
export async function createDatabase(adminUrl, given) {
  const name = databaseName(given);
  if (SHARED_ADMIN_URL) created.add(name);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}${TEMPLATE ? ` TEMPLATE ${TEMPLATE}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (!TEMPLATE) await dist('database/migrate.js').runMigrations(url.toString());
  return url.toString();
}

export async function dropDatabase(adminUrl, given) {
  const name = databaseName(given);
  created.delete(name);
  await drop(adminUrl, name);
}

async function drop(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
}

/** `org:create --json`: an organization, its owner, a site and an all-abilities API key. */
export function createOrganization(databaseUrl) {
  const output = execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'dist', 'src', 'cli', 'main.js'),
      'org:create',
      '--name',
      'Bench Inc.',
      '--email',
      `owner-${Date.now()}@bench.example`,
      '--json',
    ],
    { cwd: os.tmpdir(), env: cleanEnv({ DATABASE_URL: databaseUrl }), encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').pop());
}

/**
 * Only what the child needs: no `.env` of the checkout (cwd is elsewhere), no stray variables;
 * Node's compile cache when the run has one (the bench smoke suites pass theirs).
 */
function cleanEnv(extra) {
  const cache = process.env.NODE_COMPILE_CACHE;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(cache ? { NODE_COMPILE_CACHE: cache } : {}),
    ...extra,
  };
}

/** Spawns a Node server and resolves once `GET <readyPath>` answers 200. */
async function startNodeServer(name, script, env, port, readyPath, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: os.tmpdir(),
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A server still running when this process exits goes with it: until it is ready nobody tracks
  // it, and a run interrupted meanwhile (Ctrl+C) left it running. An exit cannot wait for a
  // graceful stop (the tracked servers had theirs before).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  void exited.then(() => process.removeListener('exit', orphaned));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${output}`);
    const ok = await fetch(url + readyPath).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${name} not ready within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export const RATE_LIMIT_PER_MINUTE = 100_000_000;

/** The compiled service, as `npm run start:prod` runs it, against `databaseUrl`. */
export async function startService(databaseUrl, publicUrl, port, extraEnv = {}, nodeArgs = []) {
  return startNodeServer(
    'service',
    path.join(ROOT, 'dist', 'src', 'main.js'),
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      // The load comes from one address and few visitors: the issue-15 throttles would refuse it.
      SIGNUP_LIMIT_PER_HOUR: String(RATE_LIMIT_PER_MINUTE),
      WIDGET_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      VISITOR_MESSAGE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      TRUSTED_LOGIN_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      SOCKET_EVENTS_PER_SECOND: String(RATE_LIMIT_PER_MINUTE),
      SOCKET_EVENT_BURST: String(RATE_LIMIT_PER_MINUTE),
      ...extraEnv,
    },
    port,
    '/health/ready',
    nodeArgs,
  );
}

/**
 * The raw `node:http` + `pg` server answering the same queries with the same JSON; with
 * `authenticate`, it also runs the service's API-key lookup and rate-limit statements.
 */
export async function startBaseline(
  databaseUrl,
  publicUrl,
  org,
  { authenticate = false, nodeArgs = [] } = {},
) {
  const port = await freePort();
  return startNodeServer(
    'baseline',
    path.join(ROOT, 'bench', 'baseline-server.mjs'),
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      ORGANIZATION_ID: String(org.organization.id),
      ACTOR_ID: String(org.owner.id),
      AUTHENTICATE: authenticate ? '1' : '0',
    },
    port,
    '/ready',
    nodeArgs,
  );
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS). */
export function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return Math.round((kib / 1024) * 10) / 10;
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    load_average_at_start: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}
