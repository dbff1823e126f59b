import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMPILE_CACHE } from './app-process';
import { addToError } from './error-context';
import { adminUrl, ROOT, TEMPLATE_DATABASE } from './test-env';

/**
 * Issue 39, point 6: the benchmarks cannot rot either. Each script of bench/ runs here at its
 * smallest (BENCH_SMOKE=1, bench/lib/smoke.mjs: a few hundred rows, about a second of load, a
 * handful of sockets, mails and events), one after the other, on the build this run made
 * (BENCH_SKIP_BUILD=1) and on this run's PostgreSQL (BENCH_DATABASE_ADMIN_URL: each script makes
 * its own databases there, clones of the migrated template, and drops them; a server of their own
 * and migrations for each database would cost most scripts more than their work). The scripts
 * check what they measure as in a real run: the baseline answers like the service, every message
 * and delivery arrives, no request is refused; a failure exits non-zero, and the end of its output
 * is this test's failure.
 *
 * The Redis variants (BENCH_REDIS=1 of bench:webhooks, bench:mail and bench:metrics, and
 * bench:realtime's pass on two instances) are left out: each costs about as much again as its
 * PostgreSQL run, and the Redis wiring has suites of its own (live-chat-instances, outbox, ...).
 */
export interface Smoke {
  /** bench/<script>.mjs */
  script: string;
  /** Arguments, made when the run starts. */
  args?: () => string[];
}

/**
 * A script's whole run, beyond which it is stopped and fails (a hang is a failure too): three
 * times the longest (up to 30 s on two cores loaded by other work).
 */
const LIMIT_SECONDS = 90;

const BENCH = path.join(ROOT, 'bench');
/** The baselines the benchmarks start beside the service: not benchmarks themselves. */
const SERVERS = ['baseline-server.mjs', 'help-center-baseline.mjs'];
const scratch: string[] = [];

/** A CPU profile of a little busy work, for bench/profile-stages.mjs to split. */
function cpuProfile(): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'scs-bench-profile-'));
  scratch.push(dir);
  const made = spawnSync(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '-e',
      'let x = 0; for (let i = 0; i < 3e7; i++) x += i;',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`node --cpu-prof: ${made.stderr}`);
  return [path.join(dir, readdirSync(dir)[0]), '1000'];
}

// package.json's order (bench:api ... bench:crawl), then the two tools.
/** Every script of bench/ but the baselines, each run by one of the two bench-smoke suites. */
export const SMOKES: Smoke[] = [
  { script: 'api' },
  { script: 'growth' },
  { script: 'webhooks' },
  { script: 'realtime' },
  { script: 'widget' },
  { script: 'dashboard' },
  { script: 'seed' },
  { script: 'mail' },
  { script: 'metrics' },
  { script: 'help-center' },
  { script: 'answer-bot' },
  { script: 'content-import' },
  { script: 'profile-stages', args: cpuProfile },
  { script: 'async-context-cost' },
];

/** The last `limit` characters a script wrote, stdout and stderr as they came. */
function tail(text: string, limit = 6000): string {
  return text.length > limit ? `…${text.slice(-limit)}` : text;
}

/** The script running now, for afterAll to stop when the suite ends early. */
let current: ChildProcess | undefined;

interface Run {
  code: number | null;
  output: string;
  /** The processes the script started and left running when it exited (then killed). */
  leftBehind: string[];
}

/**
 * Runs a benchmark as `npm run bench:*` does, in a process group of its own and on a minimal
 * environment (a DATABASE_URL of the test run would make bench:seed seed that). Past its limit it
 * is asked to stop (SIGTERM: it stops what it started), then killed with its group.
 */
function runSmoke(smoke: Smoke): Promise<Run> {
  const child = spawn(
    process.execPath,
    [path.join(BENCH, `${smoke.script}.mjs`), ...(smoke.args?.() ?? [])],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
        ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
        // The scripts, and the services they start, compile what the suites' apps compiled.
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        BENCH_SMOKE: '1',
        BENCH_SKIP_BUILD: '1',
        BENCH_DATABASE_ADMIN_URL: adminUrl(),
        BENCH_DATABASE_TEMPLATE: TEMPLATE_DATABASE,
      },
    },
  );
  current = child;
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve, reject) => {
    let kill: NodeJS.Timeout | undefined;
    const stop = setTimeout(() => {
      output += `\n[bench-smoke] over ${LIMIT_SECONDS} s: stopped\n`;
      child.kill('SIGTERM');
      kill = setTimeout(() => killGroup(child), 10_000);
    }, LIMIT_SECONDS * 1000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(stop);
      clearTimeout(kill);
      current = undefined;
      const leftBehind = child.pid === undefined ? [] : stillRunning(child.pid);
      if (leftBehind.length > 0) killGroup(child);
      resolve({ code, output, leftBehind });
    });
  });
}

/** The processes of a group still running (/proc; ended ones not yet reaped aside), named. */
function stillRunning(group: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command's name: state, parent, group.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== group || state === 'Z') continue;
      found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The suite of `scripts` (names from SMOKES): each runs in smoke mode and must exit 0 leaving
 * nothing running. Two suites share the scripts so that CI's two jest workers share the time.
 */
export function describeSmokes(title: string, scripts: string[]): void {
  describe(title, () => {
    // The limit, and time for a script past it to stop what it started.
    jest.setTimeout((LIMIT_SECONDS + 20) * 1000);

    afterAll(() => {
      if (current) killGroup(current);
      for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    });

    for (const name of scripts) {
      const smoke = SMOKES.find((entry) => entry.script === name);
      if (!smoke) throw new Error(`bench/${name}.mjs is not in SMOKES`);
      it(`bench/${smoke.script}.mjs exits 0, leaving nothing running`, async () => {
        const { code, output, leftBehind } = await runSmoke(smoke);
        try {
          expect({ code, leftBehind }).toEqual({ code: 0, leftBehind: [] });
        } catch (error) {
          addToError(
            error as Error,
            `bench/${smoke.script}.mjs, its output's end:\n${tail(output)}`,
          );
          throw error;
        }
      });
    }
  });
}

/** The two suites' shares of SMOKES (bench-smoke-servers and bench-smoke-clients). */
export const SMOKE_SHARES = {
  servers: ['api', 'webhooks', 'seed', 'mail', 'metrics', 'profile-stages', 'async-context-cost'],
  clients: [
    'growth',
    'realtime',
    'widget',
    'dashboard',
    'help-center',
    'answer-bot',
    'content-import',
  ],
};

/** Every script of bench/ but the baselines it starts. */
export function benchScripts(): string[] {
  return readdirSync(BENCH).filter((file) => file.endsWith('.mjs') && !SERVERS.includes(file));
}
