// npm run bench:seed — the benchmark data, to look at by hand (psql, EXPLAIN ANALYZE).
// With DATABASE_URL: migrates that database and seeds a new organization in it, then exits.
// Without: builds, starts an embedded PostgreSQL in a temporary directory, seeds it, prints the
// URL and the API key, and keeps it up until Ctrl+C (then removes it).
// BENCH_CONVERSATIONS (100000) and BENCH_MESSAGES (1000000) size the data; BENCH_SKIP_BUILD=1
// skips the build. BENCH_SMOKE=1 seeds a little and, without DATABASE_URL, stops at once.
import { createRequire } from 'node:module';
import { log, withCleanup } from './lib/report.mjs';
import { seed } from './lib/seed.mjs';
import { setting, SMOKE } from './lib/smoke.mjs';
import * as stack from './lib/stack.mjs';

const CONVERSATIONS = setting('BENCH_CONVERSATIONS', 100_000, 50);
const MESSAGES = setting('BENCH_MESSAGES', 1_000_000, 500);

async function fill(url) {
  const org = stack.createOrganization(url);
  const started = Date.now();
  await seed(url, org, {
    conversations: CONVERSATIONS,
    messagesPerConversation: MESSAGES / CONVERSATIONS,
  });
  log(
    `seeded ${CONVERSATIONS} conversations, ${MESSAGES} messages in ${(Date.now() - started) / 1000} s`,
  );
  process.stdout.write(`${JSON.stringify({ database_url: url, ...org }, null, 2)}\n`);
}

stack.build();
if (process.env.DATABASE_URL) {
  const require = createRequire(import.meta.url);
  await require(`${stack.ROOT}/dist/src/database/migrate.js`).runMigrations(
    process.env.DATABASE_URL,
  );
  await fill(process.env.DATABASE_URL);
} else {
  await withCleanup(async (track) => {
    const db = await stack.startDatabase();
    track(() => db.stop());
    await fill(await stack.createDatabase(db.adminUrl, 'bench'));
    // Nobody is there to look at a smoke run's data.
    if (SMOKE) return;
    log('PostgreSQL stays up until Ctrl+C');
    await new Promise(() => setInterval(() => undefined, 60_000));
  });
}
