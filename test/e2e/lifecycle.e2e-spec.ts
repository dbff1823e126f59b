import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { redisAvailable, startRedis } from '../utils/redis';
import { ROOT } from '../utils/test-env';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

/** The embedded server's own URL, from the port the app logs and the password file it keeps. */
function embeddedUrl(app: AppProcess, dataDir: string): string {
  const line = app.logs.find((entry) => typeof entry.pgPort === 'number');
  if (!line) throw new Error('the app did not report its embedded PostgreSQL port');
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${String(line.pgPort)}/support_chat`;
}

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

function postmasterPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The compiled service run in the foreground with only `env`, to the end of its start (or its refusal). */
function runService(env: Record<string, string | undefined>, timeoutMs: number) {
  return spawnSync(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
}

describe('embedded database lifecycle', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'scs-embedded-'));
    // PostgreSQL runs as its own user when the tests run as root: it must reach the folder.
    chmodSync(dataDir, 0o755);
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on its own PostgreSQL with DATABASE_URL unset, and keeps the data across a restart', async () => {
    const first = await startApp({ DATA_DIR: dataDir });
    const status = await request(first.url).get('/status.json').expect(200);
    expect(status.body.database).toEqual({ status: 'up', mode: 'embedded' });
    await request(first.url).get('/health/ready').expect(200);

    const url = embeddedUrl(first, dataDir);
    await query(url, `INSERT INTO outbox_events (event_type, payload) VALUES ('test.kept', '{}')`);
    const pid = postmasterPid(dataDir);
    expect(pid).toBeDefined();

    expect(await first.stop()).toBe(0);
    expect(alive(pid!)).toBe(false);
    expect(postmasterPid(dataDir)).toBeUndefined();

    const second = await startApp({ DATA_DIR: dataDir });
    try {
      const rows = await query<{ n: string }>(
        embeddedUrl(second, dataDir),
        `SELECT count(*) AS n FROM outbox_events WHERE event_type = 'test.kept'`,
      );
      expect(rows[0].n).toBe('1');
    } finally {
      await second.stop();
    }
  });

  it('recovers after the process was killed with SIGKILL (orphaned server stopped, data kept), and then refuses a second start on that DATA_DIR, leaving the running one serving', async () => {
    const first = await startApp({ DATA_DIR: dataDir });
    const orphan = postmasterPid(dataDir)!;
    await first.kill();
    expect(alive(orphan)).toBe(true);

    // The recovered instance is also the running one that a second start must leave alone (one
    // start of the app and its server fewer than a test of its own).
    const second = await startApp({ DATA_DIR: dataDir });
    try {
      expect(alive(orphan)).toBe(false);
      await request(second.url).get('/health/ready').expect(200);
      const rows = await query<{ n: string }>(
        embeddedUrl(second, dataDir),
        `SELECT count(*) AS n FROM outbox_events WHERE event_type = 'test.kept'`,
      );
      expect(rows[0].n).toBe('1');

      const server = postmasterPid(dataDir)!;
      const third = runService(
        { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0' },
        60_000,
      );
      expect(third.status).toBe(1);
      expect(third.stderr).toContain(
        `Another instance of the service (pid ${String(second.pid)}) is running on DATA_DIR ${dataDir}`,
      );
      // The running one's server was left alone, and it still answers from it.
      expect(postmasterPid(dataDir)).toBe(server);
      expect(alive(server)).toBe(true);
      await request(second.url).get('/health/ready').expect(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    // A clean stop gives the directory up.
    expect(existsSync(path.join(dataDir, 'app.pid'))).toBe(false);
  });

  it('answers 503 on /health/ready when the database goes away, and still answers liveness', async () => {
    const app = await startApp({ DATA_DIR: dataDir });
    try {
      await request(app.url).get('/health/ready').expect(200);
      process.kill(postmasterPid(dataDir)!, 'SIGKILL');
      const res = await eventually(async () => {
        const r = await request(app.url).get('/health/ready');
        return r.status === 503 ? r : undefined;
      });
      expect(res.body).toMatchObject({
        status: false,
        code: '503',
        error_code: 'service_unavailable',
        checks: { database: 'down' },
      });
      await request(app.url).get('/health/live').expect(200);
    } finally {
      await app.kill();
    }
  });
});

(redisAvailable() ? describe : describe.skip)('queue readiness on Redis', () => {
  it('answers 503 with the queue down when Redis stops', async () => {
    const databaseUrl = await createTestDatabase();
    const redis = await startRedis();
    const app = await startApp({ DATABASE_URL: databaseUrl, REDIS_URL: redis.url });
    try {
      const ok = await request(app.url).get('/status.json').expect(200);
      expect(ok.body.queue).toEqual({ status: 'up', backend: 'redis' });
      await redis.stop();
      const res = await eventually(async () => {
        const r = await request(app.url).get('/health/ready');
        return r.status === 503 ? r : undefined;
      });
      expect(res.body.checks).toEqual({ database: 'up', queue: 'down' });
    } finally {
      await app.kill();
      await dropTestDatabase(databaseUrl);
    }
  });
});

describe('configuration', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['DEFAULT_PLAN', 'platinum'],
    ['WEBHOOK_RETRY_SCHEDULE_MS', '5s,10s'],
    ['SIGNUP_ENABLED', 'maybe'],
  ])('refuses to start when %s is %s, naming the variable', (name, value) => {
    const result = runService(
      { PATH: process.env.PATH, [name]: value, DATA_DIR: path.join(tmpdir(), 'scs-never-created') },
      20_000,
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(`${name}=`);
    expect(existsSync(path.join(tmpdir(), 'scs-never-created'))).toBe(false);
  });
});

// As root the embedded server runs as the user `postgres`, which cannot enter a directory made by
// `mktemp -d` (mode 0700, owned by root). Without root there is no such user to test.
(process.getuid?.() === 0 ? describe : describe.skip)(
  'a DATA_DIR the embedded server cannot enter',
  () => {
    let parent: string;
    beforeEach(() => {
      parent = mkdtempSync(path.join(tmpdir(), 'scs-private-'));
      chmodSync(parent, 0o700);
    });
    afterEach(() => rmSync(parent, { recursive: true, force: true }));

    const start = (dataDir: string) =>
      runService({ PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir }, 60_000);

    it('stops the start with a message naming the directory and what to change, leaving it as it was', () => {
      const result = start(parent);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        `The embedded PostgreSQL runs as the user "postgres" (PostgreSQL refuses to run as root), and that user cannot enter ${parent}`,
      );
      expect(result.stderr).toContain(`chmod o+x ${parent}`);
      expect(result.stderr).toContain('DATABASE_URL');
      expect(readdirSync(parent)).toEqual([]);
      expect(statSync(parent).mode & 0o777).toBe(0o700);
    });

    it("starts in a DATA_DIR it creates itself, which its server can enter and only we can list (0711), keeping the database superuser's password out of the shared temp directory", async () => {
      chmodSync(parent, 0o755);
      // A temp directory every local user can read, as /tmp is; initdb's password file must not
      // pass through it (it is written with the process's umask). One start checks both: each
      // start on a new DATA_DIR runs initdb.
      const shared = path.join(parent, 'tmp');
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      const created: string[] = [];
      const watcher = watch(shared, (_event, name) => name && created.push(name));
      const dataDir = path.join(parent, 'created', 'data');
      const app = await startApp({ DATA_DIR: dataDir, TMPDIR: shared });
      try {
        await request(app.url).get('/status.json').expect(200);
      } finally {
        watcher.close();
        await app.stop();
      }
      expect(statSync(dataDir).mode & 0o777).toBe(0o711);
      expect(statSync(path.join(parent, 'created')).mode & 0o777).toBe(0o711);
      expect(created.filter((name) => name.includes('password'))).toEqual([]);
      // The private directory it used instead is gone.
      expect(readdirSync(dataDir).filter((name) => name.startsWith('init-'))).toEqual([]);
    });

    it('names the first directory on the way that the server cannot enter', () => {
      const inner = path.join(parent, 'inner');
      mkdirSync(inner, { mode: 0o755 });
      const result = start(inner);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        `that user cannot enter ${parent} (mode 700, owner root), on the way to DATA_DIR ${inner}`,
      );
      expect(readdirSync(inner)).toEqual([]);
    });
  },
);
