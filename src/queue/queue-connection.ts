import { createPostgresBackend, setDefaultBackendFactory, type ConnectionOptions } from 'bullmq';

/**
 * The BullMQ connection: Redis when `REDIS_URL` is set, otherwise BullMQ's own PostgreSQL backend
 * in the application database (schema `bullmq`). The backend factory is process-wide and must be
 * chosen before any queue or worker is built.
 */
export function queueConnection(
  redisUrl: string | undefined,
  databaseUrl: string,
): ConnectionOptions {
  if (redisUrl) {
    setDefaultBackendFactory();
    return { url: redisUrl, maxRetriesPerRequest: null };
  }
  setDefaultBackendFactory(createPostgresBackend);
  // The schema is migrated before the app starts (see database/migrate.ts).
  return { connectionString: databaseUrl, migrate: false, max: 10 };
}
