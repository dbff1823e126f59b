import type { Pool } from 'pg';
import { type AppProcess, startApp } from './app-process';
import { createTestDatabase, dropTestDatabase, pool } from './database';

type AppEnv = Record<string, string | undefined>;

/** One suite's app on its own database, and what the suite reaches it by. */
export interface TestApp {
  /** The app behind the validating proxy: what HTTP tests talk to (`app.url`). */
  app: AppProcess;
  databaseUrl: string;
  /** A small pool on the app's database, for factories and reading rows back. */
  db: Pool;
  /** The app itself, without the proxy: Socket.IO clients connect here. */
  direct: string;
  /** Closes the pool, stops the app (failing on a response the document does not allow), drops the database. */
  stop(): Promise<void>;
}

/**
 * The setup most suites share: a fresh database cloned from the migrated template, the compiled
 * app started on it and a pool on it. `env` adds to or overrides the test defaults (it may be a
 * function of the database's URL); `DATABASE_URL` is always the new database. Pair it with
 * `afterAll(() => suite?.stop())`. Should the app not start, the database is dropped before the
 * error is passed on.
 */
export async function startTestApp(
  env: AppEnv | ((databaseUrl: string) => AppEnv) = {},
): Promise<TestApp> {
  const databaseUrl = await createTestDatabase();
  let app: AppProcess;
  try {
    const extra = typeof env === 'function' ? env(databaseUrl) : env;
    app = await startApp({ ...extra, DATABASE_URL: databaseUrl });
  } catch (error) {
    await dropTestDatabase(databaseUrl);
    throw error;
  }
  const db = pool(databaseUrl);
  return {
    app,
    databaseUrl,
    db,
    direct: `http://127.0.0.1:${app.port}`,
    async stop() {
      try {
        await db.end();
        await app.stop();
      } finally {
        await dropTestDatabase(databaseUrl);
      }
    },
  };
}
