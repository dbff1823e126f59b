import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import {
  isPostmasterOf,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '../../src/database/embedded-postgres';
import { ROOT, TEMPLATE_DATABASE } from './test-env';

declare global {
  var __TEST_PG__: EmbeddedDatabase | undefined;
}

/**
 * One PostgreSQL for the whole run (embedded, or `TEST_DATABASE_URL` when given), and one migrated
 * template database that each test file clones (CREATE DATABASE ... TEMPLATE), as immich does.
 */
export default async function globalSetup(): Promise<void> {
  const compiled = path.join(ROOT, 'dist', 'src', 'database', 'migrate.js');
  if (!existsSync(compiled))
    throw new Error('Build first: `npm test` runs `npm run build` before jest');

  let admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    // A server per run, so two runs in one checkout (two terminals, parallel agents) never share
    // one; directories of runs that died are removed.
    removeDeadRuns(path.join(ROOT, '.data'));
    const dataDir = path.join(ROOT, '.data', `test-${process.pid}`);
    process.env.TEST_PG_DATA_DIR = dataDir;
    const server = await startEmbeddedPostgres(dataDir);
    globalThis.__TEST_PG__ = server;
    admin = server.adminUrl;
  }
  process.env.TEST_PG_ADMIN_URL = admin;

  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    const stale = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE 'scs_test_%'`,
      [TEMPLATE_DATABASE],
    );
    for (const { datname } of stale.rows)
      await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await client.end();
  }

  const templateUrl = new URL(admin);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  // The compiled migration runner is the one `npm start` uses: the template is what production gets.
  const { runMigrations } = (await import(compiled)) as typeof import('../../src/database/migrate');
  await runMigrations(templateUrl.toString());
}

function removeDeadRuns(root: string): void {
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root)) {
    const pid = /^test-(\d+)$/.exec(entry)?.[1];
    if (!pid || alive(Number(pid))) continue;
    // Its PostgreSQL may have outlived it.
    const databaseDir = path.join(root, entry, 'pg');
    const postmaster = path.join(databaseDir, 'postmaster.pid');
    if (existsSync(postmaster)) {
      const serverPid = Number(readFileSync(postmaster, 'utf8').split('\n')[0]);
      if (isPostmasterOf(serverPid, databaseDir)) process.kill(serverPid, 'SIGQUIT');
    }
    rmSync(path.join(root, entry), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
