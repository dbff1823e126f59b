import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { isConnectionLoss } from './common/errors/connection-loss';
import { createLogger } from './common/logging/logger';
import { EnvironmentError, loadEnvironment } from './config/load-environment';
import type { DatabaseRuntime } from './database/database-runtime';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres';

/**
 * The application's modules (Nest, TypeORM, every feature: most of a start's CPU), loaded only
 * once the configuration holds and the database is there, so a refused start (a wrong setting, a
 * data directory the embedded server cannot enter) answers at once. `require`, as the compiled
 * CommonJS does, typed as the static imports would be.
 */
function loadApplication() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded once the configuration holds */
  return {
    ...(require('./database/migrate') as typeof import('./database/migrate')),
    ...(require('./bootstrap') as typeof import('./bootstrap')),
    ...(require('./graceful-shutdown') as typeof import('./graceful-shutdown')),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = loadEnvironment();
  const logger = createLogger(env.LOG_LEVEL);
  process.on('uncaughtException', (error) => {
    if (isConnectionLoss(error)) {
      logger.warn(
        { err: { message: error.message } },
        'a connection was lost; it will be re-established',
      );
      return;
    }
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });

  let embedded: EmbeddedDatabase | undefined;
  let database: DatabaseRuntime;
  if (env.DATABASE_URL) {
    database = { url: env.DATABASE_URL, mode: 'external' };
  } else {
    logger.info({ dataDir: env.DATA_DIR }, 'starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(env.DATA_DIR, (line) =>
      logger.debug({ context: 'postgres' }, line),
    );
    database = { url: embedded.url, mode: 'embedded' };
    logger.info(
      { pgPort: embedded.port, passwordFile: `${env.DATA_DIR}/pg-password` },
      'embedded PostgreSQL ready',
    );
  }

  const { runMigrations, createApp, shutDownGracefully } = loadApplication();
  const applied = await runMigrations(database.url, { queueSchema: !env.REDIS_URL });
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');

  const app = await createApp({ env, database }, logger);
  await app.listen(env.PORT, env.HOST);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info(
    { port, database: database.mode, startup_ms: Date.now() - startedAt },
    `listening on http://${env.HOST}:${port}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A terminal's Ctrl+C also reaches the embedded server, which may close connections under
    // the closing app; errors past this point are noise, not reasons to stop half-way.
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) =>
      logger.debug({ err: error }, 'error while stopping'),
    );
    // Draining, the jobs' time to finish, and 10 s for the rest (20 s with the defaults).
    const boundMs = env.SHUTDOWN_DRAIN_MS + env.SHUTDOWN_JOB_WAIT_MS + 10_000;
    setTimeout(() => {
      logger.error(`shutdown took longer than ${boundMs / 1000} s; exiting`);
      process.exit(1);
    }, boundMs).unref();
    try {
      await shutDownGracefully(app, logger, { drainMs: env.SHUTDOWN_DRAIN_MS });
      await embedded?.stop();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvironmentError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
