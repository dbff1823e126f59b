// Results: `bench/results/<name>.json` (everything) and `.md` (the tables), printed as well.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './stack.mjs';

export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const ratio = (a, b) => (b ? Math.round((a / b) * 100) / 100 : null);

export function writeResults(name, json, markdown) {
  const dir = path.join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(path.join(dir, `${name}.md`), `${markdown}\n`);
  process.stdout.write(`\n${markdown}\n\nwritten: bench/results/${name}.json, ${name}.md\n`);
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

export const log = (message) => process.stderr.write(`[bench] ${message}\n`);
