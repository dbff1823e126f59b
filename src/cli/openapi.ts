/**
 * Writes the OpenAPI document to openapi/openapi.json without a server, a database or a queue
 * (Nest's preview mode wires the modules without running them). `--check` compares instead and
 * fails when the committed file is stale.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../bootstrap';
import { createLogger } from '../common/logging/logger';
import { loadEnvironment } from '../config/load-environment';
import { buildOpenApiDocument } from '../common/openapi/document';

const TARGET = path.resolve(__dirname, '..', '..', '..', 'openapi', 'openapi.json');

async function main(): Promise<void> {
  const env = loadEnvironment({ LOG_LEVEL: 'warn' });
  const app = await createApp(
    { env, database: { url: 'postgres://unused@127.0.0.1:1/unused', mode: 'external' } },
    createLogger('error'),
    { preview: true },
  );
  const text = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(TARGET, 'utf8');
    } catch {
      // a missing file is stale too
    }
    if (committed !== text) {
      process.stderr.write(
        'openapi/openapi.json is out of date: run `npm run openapi` and commit it.\n',
      );
      process.exit(1);
    }
    process.stdout.write('openapi/openapi.json is up to date.\n');
  } else {
    mkdirSync(path.dirname(TARGET), { recursive: true });
    writeFileSync(TARGET, text);
    process.stdout.write(`wrote ${path.relative(process.cwd(), TARGET)}\n`);
  }
  process.exit(0);
}

void main();
