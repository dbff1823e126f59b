import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { type AppProcess, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { type Instruction, parseDockerfile, type Stage } from '../utils/dockerfile';
import { ROOT } from '../utils/test-env';

const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** The sources of a COPY from the build context (not `--from` another stage), and its target. */
function copyOf(instruction: Instruction): { sources: string[]; target: string } {
  const args = instruction.args;
  return { sources: args.slice(0, -1), target: args[args.length - 1] };
}

const contextCopies = stages.flatMap((stage) =>
  stage.instructions.filter((i) => i.keyword === 'COPY' && !i.flags.from),
);

function workdirOf(stage: Stage): string {
  const workdir = stage.instructions.find((i) => i.keyword === 'WORKDIR');
  if (!workdir) throw new Error(`stage ${stage.name} has no WORKDIR`);
  return workdir.args[0];
}

/** COPY's rule: several sources, or a target ending in `/`, go into the target directory. */
function place(source: string, sources: string[], target: string, into: string): void {
  const destination = path.resolve(
    into,
    sources.length > 1 || target.endsWith('/') ? path.join(target, path.basename(source)) : target,
  );
  mkdirSync(path.dirname(destination), { recursive: true });
  cpSync(source, destination, { recursive: true });
}

/**
 * The image's recipe, checked without a container engine (DESIGN section 13): the files it copies
 * exist and reach the build context, its build commands pass in a scratch copy that holds only
 * those files, and what the runtime stage takes from the build starts with NODE_ENV=production
 * and serves the dashboard, the widget loader and readiness. `npm ci` becomes a link to this
 * checkout's node_modules (what the install step produces from the same lock); `npm prune` is not
 * run on that shared install. The runtime stage's RUN only creates the unprivileged user.
 */
describe('container recipe', () => {
  let scratch: string;
  let databaseUrl: string | undefined;
  let app: AppProcess | undefined;

  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'scs-image-'));
  });

  afterAll(async () => {
    await app?.stop();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs on Node.js 24 (the current LTS) in every stage', () => {
    expect(stages.map((stage) => stage.image)).toEqual([
      expect.stringMatching(/^node:24\b/),
      expect.stringMatching(/^node:24\b/),
    ]);
  });

  it('copies files that exist and that .dockerignore lets into the build context', () => {
    const sources = contextCopies.flatMap((copy) => copyOf(copy).sources);
    expect(sources).toEqual(expect.arrayContaining(['src', 'web', 'package-lock.json']));
    for (const source of sources) {
      expect([source, existsSync(path.join(ROOT, source))]).toEqual([source, true]);
      const top = source.replace(/^\.\//, '').split('/')[0];
      expect([source, ignored.includes(top)]).toEqual([source, false]);
    }
  });

  it('builds in a scratch copy of only what it copies, and the result serves in production', async () => {
    const dirs = new Map<string, { dir: string; workdir: string }>();
    let runtimeEnv: Record<string, string> = {};
    let command: string[] = [];
    for (const stage of stages) {
      const dir = path.join(scratch, stage.name ?? String(dirs.size));
      mkdirSync(dir);
      const workdir = workdirOf(stage);
      dirs.set(stage.name ?? '', { dir, workdir });
      for (const instruction of stage.instructions) {
        const { keyword, flags, text } = instruction;
        if (keyword === 'COPY') {
          const { sources, target } = copyOf(instruction);
          const from = flags.from ? dirs.get(flags.from) : undefined;
          for (const source of sources) {
            if (from && source === path.posix.join(from.workdir, 'node_modules')) {
              symlinkSync(path.join(from.dir, 'node_modules'), path.resolve(dir, target), 'dir');
              continue;
            }
            const origin = from
              ? path.join(from.dir, path.posix.relative(from.workdir, source))
              : path.join(ROOT, source);
            place(origin, sources, target, dir);
          }
        } else if (keyword === 'RUN' && stage.name === 'build') {
          if (/^npm ci\b/.test(text)) {
            symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
          } else if (!/^npm prune\b/.test(text)) {
            // As in the image's build stage: no NODE_ENV (jest's `test` builds React for development).
            const env = { ...process.env };
            delete env.NODE_ENV;
            const result = spawnSync(text, { cwd: dir, env, shell: true, encoding: 'utf8' });
            if (result.status !== 0)
              throw new Error(`${text} failed:\n${result.stdout}\n${result.stderr}`);
          }
        } else if (keyword === 'ENV') {
          runtimeEnv = Object.fromEntries(instruction.args.map((pair) => pair.split('=', 2)));
        } else if (keyword === 'CMD') {
          command = instruction.args;
        }
      }
    }
    const runtime = dirs.get('runtime');
    expect(runtime).toBeDefined();
    expect(command).toEqual(['node', expect.stringMatching(/\.js$/)]);
    expect(runtimeEnv.NODE_ENV).toBe('production');
    const where = { cwd: runtime!.dir, script: command[1] };
    databaseUrl = await createTestDatabase();
    const env = {
      ...runtimeEnv,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(scratch, 'data'),
      DATABASE_URL: databaseUrl,
    };

    // Production refuses to start without the master key.
    await expect(startApp(env, where)).rejects.toThrow(/SECRETS_KEY/);

    // As deploy/kubernetes runs it: Socket.IO on WebSocket only.
    app = await startApp(
      { ...env, SECRETS_KEY: randomBytes(32).toString('hex'), SOCKET_TRANSPORTS: 'websocket' },
      where,
    );
    const page = await fetch(`${app.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    expect((await fetch(`${app.url}${asset}`)).status).toBe(200);

    const loader = await fetch(`${app.url}/widget.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/javascript/);
    expect((await loader.text()).length).toBeGreaterThan(1000);

    // A long-polling handshake (which would need sticky sessions) is refused.
    const polling = await fetch(`http://127.0.0.1:${app.port}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);

    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: true,
      checks: { database: 'up', queue: 'up' },
    });
  }, 900_000);
});

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

/** docker-compose.yml: the service on PostgreSQL and Redis with what production requires. */
describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const app = compose.services.app;

  it('builds the image and runs it in production on PostgreSQL and Redis', () => {
    expect(app.build).toBe('.');
    const env = app.environment ?? {};
    expect(env.NODE_ENV).toBe('production');
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
    expect(compose.services.redis.image).toMatch(/^redis:/);
    expect(app.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });

  it('sets SECRETS_KEY, which production requires, from the operator (compose refuses without it)', () => {
    expect(app.environment?.SECRETS_KEY).toMatch(/^\$\{SECRETS_KEY:\?.+\}$/);
  });

  it('keeps its data in named volumes', () => {
    const named = Object.values(compose.services)
      .flatMap((service) => service.volumes ?? [])
      .map((volume) => volume.split(':')[0]);
    expect(named).toEqual(expect.arrayContaining(['appdata', 'pgdata', 'redisdata']));
    for (const name of named) expect(Object.keys(compose.volumes)).toContain(name);
  });
});
