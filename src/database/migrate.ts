import { runMigrations as runQueueMigrations } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/** Any fixed number shared by every instance: the lock that lets one instance migrate at a time. */
const MIGRATION_LOCK = 7_311_001;

/**
 * Applies pending migrations, each in its own transaction, while holding an advisory lock so that
 * several instances starting together do not race. Returns the names of the migrations applied.
 * With `queueSchema`, also brings BullMQ's own schema (`bullmq`) up to date, so no queue or
 * worker has to migrate while the app is starting.
 */
export async function runMigrations(url: string, { queueSchema = true } = {}): Promise<string[]> {
  if (queueSchema) {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await runQueueMigrations(client);
    } finally {
      await client.end();
    }
  }
  const dataSource = new DataSource(dataSourceOptions(url, { extra: { max: 1 } }));
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await dataSource.destroy();
  }
}
