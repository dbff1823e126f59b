import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { COMPILE_CACHE } from './app-process';
import { ROOT } from './test-env';

/**
 * The service's CLI (`npm run cli -- ...`: the compiled dist/src/cli/main.js) run to its end from
 * the checkout, on a minimal environment and `env` (no variable of the test run leaks in), with
 * the run's compile cache as the apps have.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  return spawnSync(process.execPath, [path.join(ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}
