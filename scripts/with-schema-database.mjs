#!/usr/bin/env node
// Runs a command (`eslint .` in `npm run check`) with SQL_CHECK_DATABASE_URL naming a scratch
// database migrated to the current schema, which SafeQL's `check-sql` rule (eslint.config.mjs)
// checks every `query<T>` statement against (issue 32, docs/decisions.md "Issue 32: typed SQL").
//
// With SQL_CHECK_DATABASE_URL already set (a PostgreSQL of your own, migrated), that one is used
// as it is. Otherwise the embedded PostgreSQL the app uses is started on a data directory of this
// run (.data/sql-check-<pid>), its database is migrated with the compiled migration
// runner (`npm run build` first), and the server and its directory are removed afterwards,
// whatever the command answered. The command's exit code is this script's.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('Usage: node scripts/with-schema-database.mjs <command> [arguments...]');
  process.exit(2);
}

function run(env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, cwd: ROOT, shell: false });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Directories of runs that died (SIGKILL skips our cleanup), with any server they left. */
function removeDeadRuns(root, isPostmasterOf) {
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root)) {
    const pid = /^sql-check-(\d+)$/.exec(entry)?.[1];
    if (!pid || alive(Number(pid))) continue;
    const databaseDir = path.join(root, entry, 'pg');
    const postmaster = path.join(databaseDir, 'postmaster.pid');
    if (existsSync(postmaster)) {
      const serverPid = Number(readFileSync(postmaster, 'utf8').split('\n')[0]);
      if (isPostmasterOf(serverPid, databaseDir)) process.kill(serverPid, 'SIGQUIT');
    }
    rmSync(path.join(root, entry), { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.SQL_CHECK_DATABASE_URL) return run(process.env);

  const compiled = path.join(ROOT, 'dist', 'src', 'database');
  if (!existsSync(path.join(compiled, 'migrate.js'))) {
    console.error('Build first (`npm run build`): the schema comes from the compiled migrations.');
    return 1;
  }
  const { isPostmasterOf, startEmbeddedPostgres } = require(
    path.join(compiled, 'embedded-postgres.js'),
  );
  const { runMigrations } = require(path.join(compiled, 'migrate.js'));

  const started = Date.now();
  removeDeadRuns(path.join(ROOT, '.data'), isPostmasterOf);
  const dataDir = path.join(ROOT, '.data', `sql-check-${process.pid}`);
  let server;
  try {
    // A server of this run only (its files are removed below), so its database is the scratch one.
    server = await startEmbeddedPostgres(dataDir);
    await runMigrations(server.url);
    if (process.env.SQL_CHECK_TIMING)
      console.error(`schema database ready in ${Date.now() - started} ms`);
    return await run({ ...process.env, SQL_CHECK_DATABASE_URL: server.url });
  } finally {
    await server?.stop().catch((error) => console.error(error));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
