// Results: `bench/results/<name>.json` (everything) and `.md` (the tables), printed as well.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMOKE } from './smoke.mjs';
import { ROOT } from './stack.mjs';

export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const ratio = (a, b) => (b ? Math.round((a / b) * 100) / 100 : null);

/**
 * A smoke run's results go to `<name>.smoke.*`, marked as such, beside (never over) those of the
 * last real run.
 */
export function writeResults(name, json, markdown) {
  const dir = path.join(ROOT, 'bench', 'results');
  const file = SMOKE ? `${name}.smoke` : name;
  const text = SMOKE
    ? `> **Smoke run (BENCH_SMOKE=1)**: tiny data and loads, to check that the benchmark still works. The figures mean nothing; do not quote them.\n\n${markdown}`
    : markdown;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `${file}.json`),
    `${JSON.stringify(SMOKE ? { smoke: true, ...json } : json, null, 2)}\n`,
  );
  writeFileSync(path.join(dir, `${file}.md`), `${text}\n`);
  process.stdout.write(`\n${text}\n\nwritten: bench/results/${file}.json, ${file}.md\n`);
}

/** Runs `body(track)`; whatever was tracked is stopped afterwards, newest first, even on Ctrl+C. */
export async function withCleanup(body) {
  const stack = [];
  const cleanup = async () => {
    while (stack.length > 0)
      await stack
        .pop()()
        .catch((error) => console.error(error));
  };
  const interrupted = () => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    return await body((stop) => stack.push(stop));
  } finally {
    await cleanup();
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
  }
}

/**
 * Servers started side by side (`starts`, promises of `{ stop() }`: their start-up is not
 * measured), every one tracked before the failure of one is thrown, so none is left running.
 */
export async function startTogether(track, starts) {
  const settled = await Promise.allSettled(starts);
  for (const result of settled) {
    if (result.status === 'fulfilled') track(() => result.value.stop());
  }
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => result.value);
}

export const log = (message) => process.stderr.write(`[bench] ${message}\n`);
